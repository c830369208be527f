"""Text and regex search read a trigram index (issue 30): SQLite FTS5, PostgreSQL pg_trgm GIN.

The index is only a prefilter, so search must give exactly what it gives without one. Checked on
random catalogs (names and texts with accents, ligatures, the Kelvin sign and the long s, quotes,
``%`` and ``_``, line breaks) and random queries (bare words, phrases, ``!name``, ``o:``/``d:``/
``land:``/``notes:``, ``=``, regexes anchored or not, ``-``, ``or``, parentheses), after imports,
updates and deletes, against the same catalog in a database whose server could not make the index
(which is also how such a database must behave: search still works, and says so once).
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DataError

from cardbase.db import search_index
from cardbase.db.catalog import delete_set, ensure_set, write_cards
from cardbase.db.engine import Database, open_database
from cardbase.db.search import FTS_CANDIDATES, _driven_by_index, _parsed, count_cards, search_cards
from cardbase.errors import QueryError
from tests.conftest import POSTGRES, new_database

WORDS = [
    "Gr", "gob", "Goblin", "GROWL", "grr", "Élan", "élan", "ﬁre", "fire", "\u212aing", "king", "ſun", "sun",
    "Straße", "naïve", "O'Neil", 'Say "hi"', "50%", "a_b", "x|y", "Draw", "dragon", "Toad", "toad", "kill",
    "Mole", "owl", "Ｏwl", "crème", "CREME", "lk", "grl", "gk",
]  # fmt: skip
TEXTS = [
    "Draw 1 card.", "draw", "DRAW two", "Kill 1 enemy monster.", "Gr start", "grr at the start", "\u212aill it",
    "ſtrike", "line one\nline two gr", "tab\there", "50% off", "a_b c", 'says "go"', "ends with gl", "Élan vital",
    "",
]  # fmt: skip
FRAGMENTS = ["gr", "gob", "dra", "draw", "raw", "kil", "kin", "sun", "élan", "ela", "fir", "ﬁr", "oad", "owl",
             "50%", "a_b", "x|y", '"hi"', "'ne", "one\nline", "lk", "grl", "e t", "cr", "crè", "cre", "ing",
             "ſtr", "str", "ill"]  # fmt: skip
REGEXES = ["^gr", "^gr.*[lk]$", "^kil", "^str", "^Gr", "gob", "^dra", "raw$", "^\u212a", "^kin", "^sun", "^s",
           "l.n", "^(gr|dr)", "^ela", "^élan", "(?m)^line", "^x\\|y", "^50%", "o+l", "^tab\\th", "^.r",
           "^g?r"]  # fmt: skip


def _catalog(rng: random.Random, n: int) -> list[dict[str, Any]]:
    cards: dict[str, dict[str, Any]] = {}
    while len(cards) < n:
        name = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3))) + f" {rng.randint(0, 999)}"
        kind = rng.choice(["monster", "assist"])
        record: dict[str, Any] = {"name": name, "type": kind, "text": rng.choice(TEXTS) or None}
        if rng.random() < 0.4:
            record["description"] = rng.choice(TEXTS) or None
        if rng.random() < 0.2:
            record["notes"] = rng.choice(TEXTS) or None
        if rng.random() < 0.2:
            record["land_name"] = rng.choice(WORDS)
        if rng.random() < 0.3:
            record["aliases"] = [rng.choice(WORDS) + f" {rng.randint(0, 99)}"]
        if kind == "monster":
            record |= {"cost": rng.randint(0, 6), "attack": rng.randint(0, 6), "defence": rng.randint(0, 6)}
        cards[name.lower()] = record
    return list(cards.values())


def _term(rng: random.Random) -> str:
    fragment = rng.choice(FRAGMENTS + WORDS)
    quoted = '"' + fragment.replace('"', "") + '"'
    plain = fragment if fragment.replace("_", "").replace("%", "").isalnum() else quoted
    choices = [
        plain,
        quoted,
        f"!{quoted}",
        f"name={quoted}",
        f"o:{quoted}",
        f"o={quoted}",
        f"d:{quoted}",
        f"land:{quoted}",
        f"notes:{quoted}",
        f"/{rng.choice(REGEXES)}/",
        f"name:/{rng.choice(REGEXES)}/",
        f"o:/{rng.choice(REGEXES)}/",
        f"d:/{rng.choice(REGEXES)}/",
        "t:monster",
        f"cost<={rng.randint(0, 6)}",
    ]
    term = rng.choice(choices)
    return f"-{term}" if rng.random() < 0.15 else term


def _query(rng: random.Random, depth: int = 0) -> str:
    roll = rng.random()
    if depth < 2 and roll < 0.15:
        return f"({_query(rng, depth + 1)} or {_query(rng, depth + 1)})"
    if depth < 2 and roll < 0.25:
        return f"-({_query(rng, depth + 1)})"
    if depth < 2 and roll < 0.45:
        return f"{_query(rng, depth + 1)} {_query(rng, depth + 1)}"
    return _term(rng)


@pytest.fixture
def pair(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Database, Database]]:
    """Two databases: one with the search index, one whose server refused it (made to refuse here
    by a statement that fails), so every search there reads every card."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with new_database(tmp_path / "a") as indexed_url, new_database(tmp_path / "b") as plain_url:
        indexed = open_database(indexed_url, load_catalogs=False)
        with monkeypatch.context() as patch:
            patch.setattr(search_index, "ddl", lambda dialect: ["CREATE INDEX refused ON no_such_table (x)"])
            plain = open_database(plain_url, load_catalogs=False)
        assert len(plain.notes) == 1 and "have no index" in plain.notes[0]
        with indexed.engine.connect() as a, plain.engine.connect() as b:
            assert search_index.kind(a) != "none" and search_index.kind(b) == "none"
        try:
            yield indexed, plain
        finally:
            indexed.engine.dispose()
            plain.engine.dispose()


def _write(database: Database, records: list[dict[str, Any]], set_code: str = "rnd") -> None:
    with database.transaction() as session:
        from cardbase.db.catalog import ensure_games

        ensure_games(session)
        ensure_set(session, "mea", set_code, None, "file:x.csv", None)
        write_cards(session, "mea", set_code, "file:x.csv", [dict(r) for r in records])


def _results(database: Database, query: str, game: str | None, indexed: bool) -> tuple[list[str], int] | str:
    with database.session() as session:
        if indexed and database.engine.dialect.name == "postgresql":  # make the planner read the GIN indexes
            session.execute(text("SET LOCAL enable_seqscan = off"))
        try:
            rows = search_cards(session, query, game, limit=None)
            return [row.id for row in rows], count_cards(session, query, game)
        except QueryError as error:
            return f"QueryError: {error}"
        except DataError as error:  # PostgreSQL's regex dialect refuses some RE2 patterns: (?i)(?m)…
            return f"DataError: {error.orig}"


@pytest.mark.parametrize("seed", range(4))
def test_indexed_search_gives_what_search_without_the_index_gives(pair, seed: int) -> None:
    indexed, plain = pair
    rng = random.Random(seed)
    records = _catalog(rng, 160)
    for database in pair:
        _write(database, records)
    changed = [dict(r, text=rng.choice(TEXTS) or None, description=rng.choice(TEXTS)) for r in rng.sample(records, 40)]
    extra = _catalog(random.Random(seed + 100), 40)
    for database in pair:  # updates, a second set, then the second set deleted again, in step
        _write(database, changed)
        _write(database, extra, "other")
        with database.transaction() as session:
            delete_set(session, "mea", "other")
        _write(database, extra[:20], "third")
    queries = [_query(rng) for _ in range(150)]
    used_index = 0
    for query in queries:
        for game in (None, "mea"):
            expected = _results(plain, query, game, indexed=False)
            assert _results(indexed, query, game, indexed=True) == expected, query
        if indexed.engine.dialect.name == "sqlite":
            with indexed.session() as session, contextlib.suppress(QueryError):
                used_index += _driven_by_index(session, _parsed(query)[0]) is not None
    if indexed.engine.dialect.name == "sqlite":
        assert used_index >= 50  # the comparison went through the index, not around it


PAGES = [(1, 0), (5, 0), (7, 3), (50, 0), (20, 40)]
"""Limits and offsets: pages short enough that a walk in name order serves a term on many of the
cards, and long enough that the index's candidates do."""


@pytest.mark.parametrize("seed", range(3))
def test_a_page_is_the_same_by_the_index_or_by_the_walk(pair, seed: int) -> None:
    """SQLite chooses per search between reading the index's candidates and walking the cards in
    name order (``_driven_by_index``: by the candidates' share of the catalog and the page's end);
    every page is the page search gives without the index, in the same order."""
    indexed = pair[0]
    rng = random.Random(1000 + seed)
    records = _catalog(rng, 200)
    for database in pair:
        _write(database, records)
    plans: set[bool] = set()
    for query in [_query(rng) for _ in range(80)]:
        for limit, offset in PAGES:
            pages = []
            for database in pair:
                with database.session() as session:
                    try:
                        rows = search_cards(session, query, "mea", limit, offset=offset)
                    except QueryError as error:
                        pages.append(f"QueryError: {error}")
                        continue
                    except DataError as error:  # PostgreSQL refuses some RE2 patterns
                        pages.append(f"DataError: {error.orig}")
                        continue
                    pages.append([(row.id, row.name) for row in rows])
            assert pages[0] == pages[1], (query, limit, offset)
            if indexed.engine.dialect.name == "sqlite" and not isinstance(pages[0], str):
                with indexed.session() as session:
                    node = _parsed(query)[0]
                    if _driven_by_index(session, node) is not None:  # the index finds few: which plan?
                        plans.add(_driven_by_index(session, node, limit + offset) is None)
    if indexed.engine.dialect.name == "sqlite":
        assert plans == {True, False}  # both plans served a page of few candidates


def _write_common(database) -> None:  # type: ignore[no-untyped-def]
    """One card more than ``FTS_CANDIDATES`` holding "draw": a term the walk in name order serves."""
    common = [{"name": f"Common {i}", "type": "assist", "text": "Draw a card."} for i in range(FTS_CANDIDATES + 1)]
    _write(database, common, "many")


def test_the_index_drives_a_rare_term_and_a_walk_serves_a_common_one(database) -> None:  # type: ignore[no-untyped-def]
    """SQLite reads a term the index finds on few cards from its candidates (by the short-id
    index), and a term on many cards by the name-ordered walk (``FTS_CANDIDATES``)."""
    if POSTGRES:
        pytest.skip("SQLite's plan: PostgreSQL's planner chooses its own")
    _write_common(database)
    with database.session() as session:
        assert _driven_by_index(session, _parsed("o:draw")[0]) is None
        assert _driven_by_index(session, _parsed("grimoire")[0]) == 'search_names : "grimoire"'
        plan = session.execute(text("EXPLAIN QUERY PLAN " + _sql(session, "grimoire"))).all()
        assert any("ix_card_short_id" in str(row[-1]) for row in plan), plan
        assert [r.name for r in search_cards(session, "grimoire")] == ["Grimoire"]


def test_the_plan_follows_the_catalog_after_a_write(database) -> None:  # type: ignore[no-untyped-def]
    """The index's answer on how many cards a term has is kept per catalog stamp: a write of cards
    renews the stamp, so the next search asks again and walks a term that has become common."""
    if POSTGRES:
        pytest.skip("SQLite's plan: PostgreSQL's planner chooses its own")
    with database.session() as session:
        assert _driven_by_index(session, _parsed("o:draw")[0]) == 'text : "draw"'  # few: the candidates
        assert _driven_by_index(session, _parsed("o:draw")[0]) == 'text : "draw"'  # (kept, asked again)
    _write_common(database)
    with database.session() as session:
        assert _driven_by_index(session, _parsed("o:draw")[0]) is None
        assert len(search_cards(session, "o:draw", limit=None)) > FTS_CANDIDATES


@pytest.mark.parametrize("game", [None, "mea"])
def test_a_walk_tests_the_text_in_the_order_index(database, game: str | None) -> None:  # type: ignore[no-untyped-def]
    """SQLite's walk in name order (a term on many cards) reads an index holding the text beside the
    name: the text is tested there, and ties are ordered without a sort; the results are the same."""
    if POSTGRES:
        pytest.skip("SQLite's plan: PostgreSQL's planner chooses its own")
    _write_common(database)
    with database.session() as session:
        assert _driven_by_index(session, _parsed("o:draw")[0]) is None
        plan = [str(row[-1]) for row in session.execute(text("EXPLAIN QUERY PLAN " + _sql(session, "o:draw", game)))]
        assert len(plan) == 1 and set(plan[0].split()) & set(search_index.ORDER_INDEXES), plan
        found = [r.name for r in search_cards(session, "o:draw", game)]
    with database.engine.connect() as conn:  # the same cards when the walk reads every card's row
        for name in search_index.ORDER_INDEXES:
            conn.execute(text(f"DROP INDEX {name}"))
        conn.commit()
    with database.session() as session:
        assert [r.name for r in search_cards(session, "o:draw", game)] == found
    assert [n for n in found if n.startswith("Common")][:3] == ["Common 0", "Common 1", "Common 10"]


def _sql(session: Any, query: str, game: str | None = None) -> str:
    from cardbase.db.search import _select

    node, sort = _parsed(query)
    stmt = _select(node, sort, game, 50, 0, _driven_by_index(session, node))
    return str(stmt.compile(dialect=session.get_bind().dialect, compile_kwargs={"literal_binds": True}))


def test_a_server_without_the_index_says_so_once_and_search_works(tmp_path: Path, monkeypatch) -> None:
    """The fallback: the index cannot be made (PostgreSQL without pg_trgm, or no privilege to make
    it): the first open says why, once; later opens are quiet; search reads every card."""
    from tests.hostile.conftest import run_cli

    with new_database(tmp_path) as url:
        with monkeypatch.context() as patch:
            patch.setattr(search_index, "ddl", lambda dialect: ["CREATE INDEX refused ON no_such_table (x)"])
            first = run_cli(["cards", "search", "grimoire", "--json"], url)
            again = run_cli(["cards", "search", "o:draw", "--json"], url)
        assert first.exit_code == 0 and '"Grimoire"' in first.stdout
        assert first.stderr.count("warning: text and regex search have no index") == 1, first.stderr
        assert again.exit_code == 0 and again.stderr == ""
        status = run_cli(["catalog", "status"], url)
        assert "search index: none" in status.stdout, status.stdout


def test_an_index_refused_with_pg_trgm_there_is_not_tried_at_every_open(tmp_path: Path, monkeypatch) -> None:
    """PostgreSQL: the index refused though ``pg_trgm`` is installed (a role that does not own the tables)
    is said once, as without the extension: it was tried again, and said again, at every open, each
    under the write lock (a read command waited behind any writer)."""
    if not POSTGRES:
        pytest.skip("PostgreSQL's pg_trgm extension (CARDBASE_TEST_POSTGRES is not set)")
    from sqlalchemy import create_engine

    from tests.hostile.conftest import run_cli

    with new_database(tmp_path) as url:
        admin = create_engine(url, isolation_level="AUTOCOMMIT")
        try:
            with admin.connect() as conn:
                conn.execute(text("CREATE EXTENSION IF NOT EXISTS pg_trgm"))
        finally:
            admin.dispose()
        tried: list[str] = []

        def refused(dialect: str) -> list[str]:
            tried.append(dialect)
            return ["CREATE INDEX refused ON no_such_table (x)"]

        with monkeypatch.context() as patch:
            patch.setattr(search_index, "ddl", refused)
            first = run_cli(["cards", "search", "grimoire", "--json"], url)
            again = run_cli(["cards", "search", "o:draw", "--json"], url)
        assert first.exit_code == 0 and '"Grimoire"' in first.stdout
        assert first.stderr.count("warning: text and regex search have no index") == 1, first.stderr
        assert "CREATE EXTENSION" not in first.stderr  # it is there: no promise that it would help
        assert again.exit_code == 0 and again.stderr == ""
        assert tried == ["postgresql"]


def test_postgresql_reads_the_trigram_indexes(database) -> None:  # type: ignore[no-untyped-def]
    if not POSTGRES:
        pytest.skip("PostgreSQL's pg_trgm indexes (CARDBASE_TEST_POSTGRES is not set)")
    from sqlalchemy import func, select

    from cardbase.db.search import compile_node, parse
    from cardbase.db.tables import card as Card  # the table search's conditions are made on

    many = [{"name": f"Card {i}", "type": "monster", "text": f"Text {i}"} for i in range(5_000)]
    _write(database, many, "many")  # enough cards that the planner weighs the indexes as it would
    with database.engine.connect() as conn:
        conn.execute(text("ANALYZE card"))
        conn.commit()
    with database.session() as session:
        session.execute(text("SET LOCAL enable_seqscan = off"))
        made = {r[0] for r in session.execute(text("SELECT indexname FROM pg_indexes WHERE tablename = 'card'"))}
        assert {f"ix_card_trgm_{c}" for c in ("name", *search_index.COLUMNS)} <= made
        for query, index in (("o:draw", "text"), ("gob", "search_names"), ("d:synthetic", "description")):
            count = select(func.count()).select_from(Card).where(compile_node(parse(query)))
            plan = " ".join(str(r[0]) for r in session.execute(text("EXPLAIN " + _compiled(session, count))))
            assert f"Bitmap Index Scan on ix_card_trgm_{index} " in plan, plan


def test_postgresql_tests_the_folded_text_with_the_answer_of_ilike(database) -> None:  # type: ignore[no-untyped-def]
    """PostgreSQL: a text term reads ``text_folded LIKE lower(pattern)`` before ``text ILIKE
    pattern`` (``search_index.FOLDED_TEXT``); each card it turns away is one ``ILIKE`` alone turns
    away, and the column follows every write: the texts of random cards (accents, ligatures, ß, the
    Kelvin sign, the long s), some rewritten, searched for every fragment, against ``ILIKE`` alone."""
    if not POSTGRES:
        pytest.skip("PostgreSQL's folded text column (CARDBASE_TEST_POSTGRES is not set)")
    rng = random.Random(30)
    records = _catalog(rng, 200)
    _write(database, records)
    _write(database, [dict(r, text=rng.choice(TEXTS) or None) for r in rng.sample(records, 80)])
    with database.session() as session:
        assert f"{search_index.FOLDED_TEXT} LIKE lower(" in _sql(session, "o:draw")
        assert search_index.FOLDED_TEXT not in _sql(session, "d:draw")  # the text only
        fragments = sorted({f.replace('"', "") for f in [*FRAGMENTS, *WORDS, *TEXTS]} - {""})
        finds = 0
        for fragment in fragments:
            pattern = "%" + fragment.replace("/", "//").replace("%", "/%").replace("_", "/_") + "%"
            for negated in (False, True):
                test = f"{'NOT ' if negated else ''}coalesce(text ILIKE :p ESCAPE '/', false)"  # two-valued
                expected = sorted(session.execute(text(f"SELECT id FROM card WHERE {test}"), {"p": pattern}).scalars())
                query = f'{"-" if negated else ""}o:"{fragment}"'
                found = sorted(row.id for row in search_cards(session, query, limit=None))
                assert found == expected, query
                finds += not negated and bool(found)
        assert finds >= len(fragments) // 2  # not a comparison of empty answers


def _compiled(session: Any, stmt: Any) -> str:
    dialect = session.get_bind().dialect
    return str(stmt.compile(dialect=dialect, compile_kwargs={"literal_binds": True})).replace("%%", "%")


def test_a_user_who_may_not_make_the_extension_still_searches(tmp_path: Path) -> None:
    """PostgreSQL: a role that may make tables but not extensions (no CREATE on the database) opens
    a new database: the index is refused, said once, and search reads every card."""
    if not POSTGRES:
        pytest.skip("a PostgreSQL role without privileges (CARDBASE_TEST_POSTGRES is not set)")
    import uuid

    from sqlalchemy import create_engine

    from tests.hostile.conftest import run_cli

    role = f"cardbase_plain_{uuid.uuid4().hex[:8]}"
    with new_database(tmp_path) as url:
        admin = create_engine(url, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f"CREATE ROLE {role} LOGIN"))
            conn.execute(text(f"REVOKE CREATE ON DATABASE {url.rsplit('/', 1)[1]} FROM PUBLIC"))
            conn.execute(text(f"GRANT CREATE, USAGE ON SCHEMA public TO {role}"))
        user_url = url.replace("//postgres@", f"//{role}@", 1)
        try:
            first = run_cli(["cards", "search", "grimoire", "--json"], user_url)
            assert first.exit_code == 0 and '"Grimoire"' in first.stdout, first.output
            assert "cannot make the pg_trgm index: permission denied" in first.stderr, first.stderr
            again = run_cli(["cards", "search", "/^gr.*e$/", "--json"], user_url)
            assert again.exit_code == 0 and again.stderr == "" and '"Grimoire"' in again.stdout
        finally:
            with admin.connect() as conn:
                conn.execute(text(f"DROP OWNED BY {role} CASCADE"))
                conn.execute(text(f"DROP ROLE {role}"))
            admin.dispose()


def test_postgresql_searches_are_planned_each_time(database) -> None:  # type: ignore[no-untyped-def]
    """psycopg prepares a statement run five times, and PostgreSQL may then plan it once for any
    pattern, which cannot read the trigram indexes (a regex search read every card so): search runs
    its statements unprepared."""
    if not POSTGRES:
        pytest.skip("psycopg's prepared statements (CARDBASE_TEST_POSTGRES is not set)")
    with database.session() as session:
        for _ in range(8):
            assert "Grimoire" in [r.name for r in search_cards(session, "/^gr.*e$/")]
            count_cards(session, "/^gr.*e$/")
        prepared = session.execute(text("SELECT count(*) FROM pg_prepared_statements")).scalar_one()
    assert prepared == 0


def test_a_regex_prefilter_without_a_trigram_is_left_to_sqlite() -> None:
    """``/^gr.*[lk]$/`` must hold ``gr``: SQLite tests ``LIKE '%gr%'`` before the regex (cheaper per
    row); PostgreSQL leaves it out, as pg_trgm takes no trigram from two characters and its index
    would read every entry for it (the anchored ``gr%`` has padded trigrams, and stays)."""
    from sqlalchemy.dialects import postgresql, sqlite

    from cardbase.db.search import compile_node, parse

    condition = compile_node(parse("o:/^gr.*[lk]$/"))
    for dialect, kept in ((sqlite.dialect(), ["%gr%", "gr%"]), (postgresql.psycopg.dialect(), ["gr%"])):
        compiled = condition.compile(dialect=dialect)
        assert [v for v in compiled.params.values() if "%" in v] == kept
        assert ("true" in compiled.string) is (kept == ["gr%"]), compiled.string
    long_literal = compile_node(parse("o:/^gr.*draw/")).compile(dialect=postgresql.psycopg.dialect())
    assert "%draw%" in long_literal.params.values()  # three characters or more: pg_trgm reads it
