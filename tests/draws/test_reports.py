"""The draws reports as values (cardbase.draws.reports): what the CLI formats and the web app renders."""

from __future__ import annotations

from fractions import Fraction

from cardbase.db.engine import Database
from cardbase.draws.exact import Kind
from cardbase.draws.openings import MeikyuDraws
from cardbase.draws.reports import (
    draw_model,
    mea_report,
    meikyu_report,
    meio_report,
    needs_report,
    sample_report,
)
from cardbase.draws.service import load, parse_need, setup
from tests.conftest import REPO

DECKS = REPO / "examples" / "decks"


def _deck(database: Database, name: str, needs: list[str] | None = None):  # type: ignore[no-untyped-def]
    parsed = [parse_need(t, Kind.AT_LEAST) for t in needs or []]
    path = DECKS / name
    deck = setup(database, load(database, path), parsed, str(path))
    return deck, draw_model(deck, parsed, 5, None)


def test_the_opening_reports_are_values_with_their_json(database: Database) -> None:
    deck, _ = _deck(database, "meio-hand.txt")
    meio = meio_report(deck)
    assert meio.hand.hand == 13 and sum(meio.hand.hearts) == 1
    assert meio.is_hand and meio.left_aside is not None and meio.left_aside < 0
    data = meio.as_dict()
    assert data["is_hand"] and "do not apply" in data["why"]
    assert (data["hearts"], data["high_cards"], data["void_suits"]) == (4, 6, 0)
    deck3, _ = _deck(database, "meio-3-players.txt")
    full = meio_report(deck3)
    assert not full.is_hand and full.as_dict()["left_aside"] == full.left_aside == 1

    deck, _ = _deck(database, "mea-goblin-rush.txt")
    mea = mea_report(database, deck, [5, 5])
    assert [r.opening for r in mea.openings] == list(range(1, 11))
    # No monster castable in an opening of n: C(deck - castable, n) / C(deck, n), exactly.
    from math import comb

    k = mea.castable[5]
    assert mea.openings[2].no_castable[5] == Fraction(comb(mea.cards - k, 3), comb(mea.cards, 3))
    assert mea.as_dict()["openings"][2]["no_castable_monster"]["5"] == float(mea.openings[2].no_castable[5])

    deck, model = _deck(database, "meikyu-rulebook-cards.txt")
    assert isinstance(model, MeikyuDraws)
    meikyu = meikyu_report(deck, model, 500, 3)
    assert meikyu.runs == 500 and meikyu.simulated.trials == 500
    assert meikyu.as_dict()["redeals_per_deal"]["seed"] == 3


def test_needs_and_samples(database: Database) -> None:
    deck, model = _deck(database, "mea-goblin-rush.txt", ["1 t:monster"])
    report = needs_report(deck, model, None, None, None, 0)
    assert not report.single and [a.seen for a in report.answers] == list(range(1, 11))
    assert report.as_json() == report.rows
    single = needs_report(deck, model, 4, None, 200, 1)
    assert single.single and single.as_json()["monte_carlo"]["trials"] == 200
    samples = sample_report(deck, model, 3, 7, None)
    assert len(samples.hands) == 3 and all(len(h.cards) == 5 for h in samples.hands)
    assert samples == sample_report(deck, model, 3, 7, None)  # seeded
    assert all(h.meets_needs is not None for h in samples.hands)


def test_draws_on_a_meio_hand_says_why_a_deal_does_not_apply(db_url: str) -> None:
    from tests.hostile.conftest import run_cli

    out = run_cli(["draws", DECKS / "meio-hand.txt"], db_url).stdout
    assert "left aside" not in out and "100%" not in out
    assert "one hand, not a deck to deal from" in out and "4 hearts" in out


def test_meikyu_redeal_lines_name_one_player_and_any_player(db_url: str) -> None:
    from tests.hostile.conftest import run_cli

    out = run_cli(["draws", DECKS / "meikyu-rulebook-cards.txt", "--players", "3"], db_url).stdout
    assert "you (one given player) are dealt an OPEN card at the first deal" in out
    assert "at least one of the 3 players is, so the first deal needs a redeal" in out
