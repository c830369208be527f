"""The search language: what users type finds what they mean; SQL agrees with a Python reference."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from cardbase.db.models import Card
from cardbase.db.search import And, Not, Or, Term, parse, search_cards
from cardbase.errors import QueryError
from cardbase.names import fold


def names(database, query: str, game: str | None = None) -> set[str]:
    with database.session() as s:
        return {c.name for c in search_cards(s, query, game, limit=None)}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("cock", {"Cook"}),  # translator's alias
        ("grimor", {"Grimoire"}),
        ("marketplace", {"Den of the Geister"}),  # a land's owned name
        ('"Dungeon Storm"', {"Dungeon Storm"}),
        ("creme golem", {"Crème Golem"}),  # accents optional
        ("CRÈME", {"Crème Golem"}),
        ("level>=9", {"Castle of the Tyrant", "Cave of the Dragon"}),
        ("t:aggression", {"Gotcha!"}),
        ("t:gotcha", {"Gotcha!"}),  # type synonym
        ("rank>=12 suit:♥", {"Queen of Hearts", "King of Hearts", "Ace of Hearts"}),  # ace high
        ("rank<=2 suit:♥", {"Two of Hearts"}),
        ("rank:1 suit:♥", {"Ace of Hearts"}),
        ("rank:a suit:s", {"Ace of Spades"}),
        ("game:meikyu t:open", {"Refugee", "Dungeon Storm", "Dungeon Tsunami"}),
        ("t:land o:aggression", {"Nest of the Ogrekin", "Castle of the Tyrant"}),
        ("/^c.*k$/ game:meikyu", {"Cook"}),
        ("name:/tsunami|storm/", {"Dungeon Storm", "Dungeon Tsunami"}),
        ("!gotcha", {"Gotcha!"}),
        ("t:tile", {"Yellow Tile", "Blue Tile"}),
    ],
)
def test_queries_find_what_users_mean(database, query: str, expected: set[str]) -> None:
    assert names(database, query) == expected


def test_unknown_values_never_match_a_comparison_and_negation_is_the_complement(database) -> None:
    everything = names(database, "game:mea")
    cheap = names(database, "game:mea cost<=3")
    not_cheap = names(database, "game:mea -cost<=3")
    assert "Selounticia" not in cheap and "Selounticia" in not_cheap  # unknown cost
    assert cheap | not_cheap == everything and not cheap & not_cheap
    assert "Selounticia" not in names(database, "game:mea cost!=3")


def test_is_unknown_and_unknown_field(database) -> None:
    unknown = names(database, "is:unknown game:mea")
    assert {"Selounticia", "Chemical Vial"} <= unknown
    assert not any(n for n in unknown if n in names(database, "set:demo"))
    assert names(database, "unknown:bravery") == names(database, "t:character")
    assert names(database, "unknown:land_name") == {"Archives of the Dungeon Geek"}


def test_unknown_field_names_the_field_not_a_field_whose_name_holds_it(database) -> None:
    """``unknown:points`` is the cards whose points are unknown: a land whose points an owner entered,
    its developed points still unknown, is not one of them (``developed_points`` holds ``points``)."""
    from cardbase.db.edit import edit_card

    edit_card(database, "meikyu/core/den-of-the-geister", {"points": "2"}, "test")
    assert "Den of the Geister" not in names(database, "unknown:points")
    assert "Den of the Geister" in names(database, "-unknown:points")
    assert "Den of the Geister" in names(database, "unknown:dev") and "Den of the Geister" in names(
        database, "unknown:developed_points"
    )
    assert "Cave of the Dragon" in names(database, "unknown:points")


def test_source_and_set_filters(database) -> None:
    demo = names(database, "source:demo")
    assert demo == names(database, "set:demo") == names(database, "is:demo")
    assert "Selounticia" in names(database, "source:rulebook game:mea")


def test_or_and_parentheses(database) -> None:
    both = names(database, "t:item (sword or map)")
    assert both == {"Sword", "Map"}
    assert names(database, "sword or map t:item") == names(database, "sword or (map t:item)")


@pytest.mark.parametrize(
    ("query", "names_term"),
    [
        ("cost<=x", "'cost<=x'"),
        ("foo:bar", "'foo'"),
        ("(t:monster", "'('"),
        ("t:monster)", "')'"),
        ("/[unclosed/", "regular expression"),
        ("/a\\/", "unclosed regular expression"),  # its last / is escaped
        ("o:/x\\\\\\/", "unclosed regular expression"),  # an escaped backslash, then an escaped /
        ("or t:item", "'or'"),
        ("t:item or", "'or'"),
        ("t:wizard", "'wizard'"),
        ('"open phrase', "quote"),
        ("game:chess", "'chess'"),
        ("cost>", "'cost>'"),
        ("o<3", "'o<3'"),
        ("is:shiny", "'is:shiny'"),
    ],
)
def test_bad_queries_name_the_offending_term(query: str, names_term: str) -> None:
    with pytest.raises(QueryError) as error:
        parse(query) and _compile(query)
    assert names_term in str(error.value)


@pytest.mark.parametrize(
    ("query", "pattern", "text"),
    [
        ("/\\\\/", "\\\\", "a\\b"),  # one backslash, escaped: the closing / is not escaped
        ("o:/a\\/b/", "a\\/b", "a/b"),
        ("/x\\\\\\\\/", "x\\\\\\\\", "x\\\\"),
    ],
)
def test_a_regex_ending_in_an_escaped_backslash_is_closed(database, query: str, pattern: str, text: str) -> None:
    term = parse(query)
    assert isinstance(term, Term) and term.regex and term.value == pattern
    assert re.search(pattern, text)
    names(database, query)  # runs as SQL, finding what it finds


def _compile(query: str) -> None:
    from cardbase.db.search import compile_node

    compile_node(parse(query))


def test_field_of_another_game_is_an_error_within_a_game(database) -> None:
    with pytest.raises(QueryError, match="bravery"):
        names(database, "bravery>=2", game="mea")


def test_values_are_bound_parameters_not_sql(database) -> None:
    from cardbase.db.search import build_select

    sql = str(build_select('name:"x\' OR 1=1 --" cost<=3'))
    assert "OR 1=1" not in sql
    assert names(database, '"x\' OR 1=1 --"') == set()
    assert names(database, "100%") == set()  # LIKE wildcards are escaped


# --- the SQL compiler against a Python reference evaluator, on random queries ---------------

_WORDS = ["dragon", "goblin", "cook", "tile", "of", "e", "crème", "%", "_"]
_NUMERIC = {"cost": "cost", "atk": "attack", "def": "defence", "level": "level", "rank": "rank"}
_OPS = ["<", "<=", ">", ">=", "=", "!=", ":"]


def _term() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(_WORDS),
        st.builds(
            lambda k, o, v: f"{k}{o}{v}", st.sampled_from(list(_NUMERIC)), st.sampled_from(_OPS), st.integers(0, 10)
        ),
        st.builds(lambda t: f"t:{t}", st.sampled_from(["monster", "assist", "land", "character", "tile"])),
        st.builds(lambda w: f"o:{w}", st.sampled_from(["draw", "kill", "land", "sword"])),
        st.sampled_from(["is:unknown", "is:demo", "game:mea", "game:meikyu", "set:core", "/o.?o/"]),
    )


def _query() -> st.SearchStrategy[str]:
    return st.recursive(
        _term(),
        lambda inner: st.one_of(
            st.builds(lambda a, b: f"{a} {b}", inner, inner),
            st.builds(lambda a, b: f"({a} or {b})", inner, inner),
            st.builds(lambda a: f"-({a})", inner),
        ),
        max_leaves=6,
    )


def _holds(node, card: Card) -> bool:
    if isinstance(node, And):
        return all(_holds(n, card) for n in node.items)
    if isinstance(node, Or):
        return any(_holds(n, card) for n in node.items)
    if isinstance(node, Not):
        return not _holds(node.item, card)
    t: Term = node
    if t.key is None:
        if t.regex:
            return bool(re.search(t.value, card.name, re.I) or re.search(t.value, card.text or "", re.I))
        return fold(t.value) in card.search_names
    if t.key in _NUMERIC:
        value = getattr(card, _NUMERIC[t.key])
        if value is None:
            return False
        n = int(t.value)
        if _NUMERIC[t.key] == "rank":  # Meio reads the ace high: above the king
            value, n = (14 if value == 1 else value), (14 if n == 1 else n)
        return {
            "<": value < n,
            "<=": value <= n,
            ">": value > n,
            ">=": value >= n,
            "=": value == n,
            ":": value == n,
            "!=": value != n,
        }[t.op]
    if t.key == "t":
        return card.type == t.value
    if t.key == "o":
        return t.value.lower() in (card.text or "").lower()
    if t.key == "game":
        return card.game == t.value
    if t.key == "set":
        return card.set_code == t.value
    if t.key == "is":
        return card.unknown != "" if t.value == "unknown" else card.source == "demo"
    raise AssertionError(t)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=_query())
def test_sql_agrees_with_a_python_reference(database, query: str) -> None:
    with database.session() as s:
        cards = s.scalars(select(Card)).all()
        expected = {c.id for c in cards if _holds(parse(query), c)}
        got = {c.id for c in search_cards(s, query, limit=None)}
    assert got == expected, query
