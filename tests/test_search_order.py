"""Order as players read it (issue 13): Scryfall's order: and direction:, --order/--direction, ace high or low."""

from __future__ import annotations

import json

import pytest

from tests.hostile.conftest import assert_refused, run_cli


def _search(db: str, *args: str) -> list[dict]:  # type: ignore[type-arg]
    result = run_cli(["cards", "search", *args, "--json"], db)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_order_by_attack_descending_puts_unknown_last(db_url: str) -> None:
    cards = _search(db_url, "game:mea t:monster order:atk direction:desc", "-n", "100")
    attacks = [c["attack"] for c in cards]
    known = [a for a in attacks if a is not None]
    assert known == sorted(known, reverse=True) and len(set(known)) > 3
    assert attacks[: len(known)] == known  # unknown (Selounticia) after every known value
    assert cards[-1]["attack"] is None


@pytest.mark.parametrize("direction", ["asc", "desc"])
def test_option_and_term_agree(db_url: str, direction: str) -> None:
    by_term = _search(db_url, f"game:mea order:cost direction:{direction}", "-n", "200")
    by_option = _search(db_url, "game:mea", "--order", "cost", "--direction", direction, "-n", "200")
    assert [c["id"] for c in by_term] == [c["id"] for c in by_option]
    costs = [c["cost"] for c in by_term if c["cost"] is not None]
    assert costs == sorted(costs, reverse=direction == "desc")


def test_rank_order_is_ace_high(db_url: str) -> None:
    names = [c["name"] for c in _search(db_url, "suit:s", "--order", "rank")]
    assert names[0] == "Two of Spades" and names[-2:] == ["King of Spades", "Ace of Spades"]
    found = {c["name"] for c in _search(db_url, "suit:s rank>=10")}
    assert found == {"Ten of Spades", "Jack of Spades", "Queen of Spades", "King of Spades", "Ace of Spades"}


SPADES_TEN_UP = {"Ten of Spades", "Jack of Spades", "Queen of Spades", "King of Spades"}


@pytest.mark.parametrize("how", [["ace:low suit:s"], ["suit:s", "--ace", "low"], ["suit:s ace:LOW", "--ace", "low"]])
def test_ace_low_puts_the_ace_below_the_two(db_url: str, how: list[str]) -> None:
    query, *option = how
    names = [c["name"] for c in _search(db_url, query, "--order", "rank", *option)]
    assert names[:2] == ["Ace of Spades", "Two of Spades"] and names[-1] == "King of Spades"
    found = {c["name"] for c in _search(db_url, query + " rank>=10", *option)}
    assert found == SPADES_TEN_UP  # the ace is not above the ten when it ranks low
    low = {c["name"] for c in _search(db_url, query + " rank<=2", *option)}
    assert low == {"Ace of Spades", "Two of Spades"}
    assert {c["name"] for c in _search(db_url, query + " rank:a", *option)} == {"Ace of Spades"}


def test_ace_high_is_the_default_and_can_be_said(db_url: str) -> None:
    said = [c["id"] for c in _search(db_url, "suit:h ace:high rank>=10", "--order", "rank")]
    assert said == [c["id"] for c in _search(db_url, "suit:h rank>=10", "--order", "rank")]
    assert len(said) == 5 and said[-1].endswith("ace-of-hearts")
    assert {c["name"] for c in _search(db_url, "suit:h rank<=2")} == {"Two of Hearts"}
    assert {c["name"] for c in _search(db_url, "suit:h rank:1")} == {"Ace of Hearts"}


def test_order_only_query_lists_everything_sorted(db_url: str) -> None:
    cards = _search(db_url, "order:level direction:desc", "--game", "meikyu", "-n", "5")
    assert [c["level"] for c in cards] == sorted((c["level"] for c in cards), reverse=True)


@pytest.mark.parametrize(
    ("query", "fragment"),
    [
        ("order:nope", "not a sort key"),
        ("order:cots", "did you mean 'cost'"),
        ("x direction:up", "asc or desc"),
        ("a or order:cost", "outside"),
        ("suit:s ace:middle", "high or low"),
        ("x -ace:low", "outside"),
        ("ace<3", "write ace:VALUE"),
    ],
)
def test_bad_order_is_one_error(db_url: str, query: str, fragment: str) -> None:
    assert_refused(run_cli(["cards", "search", query], db_url), 2, fragment)


def test_bad_ace_option_is_one_error(db_url: str) -> None:
    assert_refused(
        run_cli(["cards", "search", "suit:s", "--ace", "sideways"], db_url),
        2,
        "--ace",
        "'sideways' is not one of high, low",
    )


def test_search_help_names_ace_low() -> None:
    out = run_cli(["cards", "search", "--help"]).stdout
    assert "ace:low" in out and "--ace" in out


def test_bad_order_option_is_one_error(db_url: str) -> None:
    assert_refused(run_cli(["cards", "search", "x", "--order", "speed"], db_url), 2, "not a sort key")


@pytest.mark.parametrize(
    ("query", "option", "said"),
    [
        ("game:mea order:cmc", ["--order", "name"], ("--order name", "'order:cmc' in the query")),
        ("game:mea direction:desc", ["--direction", "asc"], ("--direction asc", "'direction:desc' in the query")),
        ("suit:s ace:LOW", ["--ace", "high"], ("--ace high", "'ace:LOW' in the query")),
    ],
)
def test_an_option_beside_its_setting_in_the_query_must_agree(
    db_url: str, query: str, option: list[str], said: tuple[str, ...]
) -> None:
    """``--order``/``--direction``/``--ace`` and ``order:``/``direction:``/``ace:`` in the query say the
    same thing: when they differ it is bad usage naming both (the query had won without a word)."""
    assert_refused(run_cli(["cards", "search", query, *option], db_url), 2, *said)


@pytest.mark.parametrize(
    ("query", "option"),
    [
        ("game:mea order:cmc", ["--order", "cost"]),  # cmc and cost are one key
        ("game:mea order:COST direction:DESC", ["--order", "cost", "--direction", "desc"]),
        ("suit:s ace:low", ["--ace", "low"]),
    ],
)
def test_an_option_that_agrees_with_the_query_is_accepted(db_url: str, query: str, option: list[str]) -> None:
    assert _search(db_url, query, *option, "-n", "20") == _search(db_url, query, "-n", "20")
