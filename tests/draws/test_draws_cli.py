"""``cardbase draws`` as users run it: exact answers, tables, JSON shapes, plots, samples, reports, bad input."""

from __future__ import annotations

import json
from math import comb
from pathlib import Path

import pytest
from scipy.stats import hypergeom
from typer.testing import CliRunner

from cardbase.cli.app import app
from cardbase.errors import quoted
from tests.conftest import REPO

EXAMPLES = REPO / "examples" / "decks"
GOBLIN = str(EXAMPLES / "mea-goblin-rush.txt")
MEIKYU = str(EXAMPLES / "meikyu-rulebook-cards.txt")
MEIO = str(EXAMPLES / "meio-3-players.txt")
runner = CliRunner()


def run(db: str, *args: str):
    return runner.invoke(app, ["draws", *args, "--db", db], catch_exceptions=False)


def run_json(db: str, *args: str):
    result = run(db, *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_single_need_equals_scipy_through_the_cli(db_url: str) -> None:
    # Goblin Rush: 32 cards, 22 monsters costing at most 3 (the same cards `cards search` finds).
    data = run_json(db_url, GOBLIN, "--need", "2 t:monster cost<=3", "--cards", "6")
    assert list(data)[:4] == ["cards_seen", "probability", "method", "needs"]
    assert data["cards_seen"] == 6 and data["method"] == "exact"
    assert data["needs"] == [
        {
            "kind": "at least",
            "count": 2,
            "query": "t:monster cost<=3",
            "matching": 22,
            "probability": data["probability"],
        }
    ]
    assert data["probability"] == pytest.approx(hypergeom.sf(1, 32, 22, 6), abs=1e-12)


def test_the_new_users_question_exact_number_and_monte_carlo(db_url: str) -> None:
    data = run_json(
        db_url, GOBLIN, "-n", "2 t:monster cost<=3", "-n", "1 t:assist", "-c", "6", "--trials", "50000", "--seed", "7"
    )
    # 22 cheap monsters, 8 assists, 2 others (disjoint): count the hands directly.
    hands = sum(comb(22, m) * comb(8, a) * comb(2, 6 - m - a) for m in range(2, 7) for a in range(1, 7) if m + a <= 6)
    assert data["probability"] == pytest.approx(hands / comb(32, 6), abs=1e-15)
    mc = data["monte_carlo"]
    assert mc["trials"] == 50000 and mc["seed"] == 7 and mc["low"] <= data["probability"] <= mc["high"]
    again = run_json(
        db_url, GOBLIN, "-n", "2 t:monster cost<=3", "-n", "1 t:assist", "-c", "6", "--trials", "50000", "--seed", "7"
    )
    assert again == data


def test_table_by_cards_seen_and_by_turn(db_url: str) -> None:
    table = run_json(db_url, GOBLIN, "--need", "2 t:monster cost<=3", "--at-most", "1 t:assist")
    assert [row["cards_seen"] for row in table] == list(range(1, 11))
    assert all(row["method"] == "exact" and len(row["needs"]) == 2 for row in table)
    assert table[1]["needs"][1]["kind"] == "at most"
    turns = run_json(db_url, GOBLIN, "--need", "2 t:monster cost<=3", "--by-turn", "3", "--opening", "4")
    assert [(r["turn"], r["cards_seen"]) for r in turns] == [(1, 4), (2, 5), (3, 6)]
    assert turns[2]["probability"] == table[5]["needs"][0]["probability"]
    text = run(db_url, GOBLIN, "--need", "2 t:monster cost<=3", "--by-turn", "3")
    assert text.exit_code == 0 and "turn" in text.stdout and "opening 5 cards" in text.stdout


def test_plot_is_a_real_png(db_url: str, tmp_path: Path) -> None:
    from PIL import Image

    path = tmp_path / "plots" / "draws.png"
    result = run(db_url, GOBLIN, "--need", "2 t:monster cost<=3", "--need", "1 t:assist", "--plot", str(path))
    assert result.exit_code == 0, result.output
    with Image.open(path) as image:
        assert image.format == "PNG" and image.size[0] > 500 and image.size[1] > 300
        # not blank: the lines and text make many colours
        assert len(image.convert("RGB").getcolors(maxcolors=1 << 16) or []) > 20


def test_samples_are_seeded_and_marked(db_url: str) -> None:
    args = (GOBLIN, "--sample", "4", "--seed", "3", "--need", "2 t:monster cost<=3", "--need", "1 t:assist")
    data = run_json(db_url, *args)
    assert data["seed"] == 3 and len(data["hands"]) == 4
    assert all(len(h["cards"]) == 5 and isinstance(h["meets_needs"], bool) for h in data["hands"])
    assert run_json(db_url, *args) == data
    meikyu = run_json(db_url, MEIKYU, "--sample", "5", "--seed", "1")
    opens = {"Refugee", "Dungeon Storm", "Dungeon Tsunami"}
    assert all(len(h["cards"]) == 4 and not opens & set(h["cards"]) and "redeals" in h for h in meikyu["hands"])
    meio = run(db_url, MEIO, "--sample", "2", "--seed", "1")
    assert meio.exit_code == 0 and len(meio.stdout.splitlines()[1].split(", ")) == 13


def test_meikyu_needs_use_the_kingdom_pile_and_the_redeal(db_url: str) -> None:
    # 26 Kingdom cards (lands left out), 3 OPEN: the 4 dealt cards come from the 23 others.
    data = run_json(db_url, MEIKYU, "--need", "1 t:item", "--cards", "4")
    assert data["probability"] == pytest.approx(hypergeom.sf(0, 23, 4, 4), abs=1e-12)
    opening = run_json(db_url, MEIKYU, "--need", "t:open", "--cards", "4")
    assert opening["probability"] == 0
    result = run(db_url, MEIKYU, "--need", "t:open", "--by-turn", "2", "--players", "3", "--json")
    assert result.exit_code == 0 and "16 land cards left out" in result.stderr


def test_reports_per_game(db_url: str) -> None:
    default = run_json(db_url, GOBLIN)
    assert default["first_turn_mana"] == {"first player": 5, "second player": 5}  # the rulebook's set-up
    assert default["castable"] == {"5": 24}
    mea = run_json(db_url, GOBLIN, "--mana", "3,4")
    assert [r["opening"] for r in mea["openings"]] == list(range(1, 11))
    assert mea["castable"] == {"3": 22, "4": 24}
    assert mea["openings"][0]["no_castable_monster"]["3"] == pytest.approx(10 / 32)
    meikyu = run_json(db_url, MEIKYU, "--trials", "2000")
    assert meikyu["player_dealt_open"] == {"probability": 1 - comb(23, 4) / comb(26, 4), "method": "exact"}
    assert meikyu["redeals_per_deal"]["method"] == "monte carlo" and meikyu["redeals_per_deal"]["trials"] == 2000
    assert sum(meikyu["opening_hand"]["by_type"]["character"]) == pytest.approx(1)
    meio = run_json(db_url, MEIO)
    assert meio["players"] == 3 and meio["left_aside"] == 1 and meio["high_ranks"] == ["A", "10", "9", "8"]
    assert sum(meio["hearts"]) == pytest.approx(1) and sum(meio["voids"]) == pytest.approx(1)
    for name in (GOBLIN, MEIKYU, MEIO):
        assert run(db_url, name).exit_code == 0


def test_unknown_values_are_not_guessed_and_said(db_url: str, tmp_path: Path) -> None:
    deck = tmp_path / "unknown.txt"
    deck.write_text("game: mea\n3 Selounticia\n10 Crumb Goblin\n5 Chemical Vial\n", encoding="utf-8")
    result = run(db_url, str(deck), "--need", "t:monster cost<=3", "--cards", "4")
    assert result.exit_code == 0
    assert "unknown cost" in result.stdout and "not guessed" in result.stdout
    data = run_json(db_url, str(deck), "--need", "t:monster cost<=3", "--cards", "4")
    assert data["needs"][0]["matching"] == 10  # Selounticia's cost is unknown: not cost<=3
    report = run(db_url, str(deck))
    assert "3 of unknown cost, counted as not castable" in report.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--need", "2 t:assist", "--cards", "40"], "cannot see 40 cards"),
        (["--need", "40 t:monster"], "the deck has only 32 cards"),
        (["--need", "t:monster cost>=9"], "matches no card of the deck"),
        (["--need", "2 (t:monster"], "unclosed '('"),
        (["--need", "2 bravery>=1"], "bravery is not a value of mea cards"),
        (["--need", "2"], "a count needs a query"),
        (["--need", "2 t:assist", "--cards", "3", "--by-turn", "2"], "not both"),
        (["--need", "2 t:assist", "--by-turn", "40"], "turn 40"),
        (["--plot", "x.png"], "give at least one --need"),
        (["--players", "2"], "--players is for Meikyu"),
        (["--mana", "three"], "--mana"),
    ],
)
def test_bad_usage_exits_2_with_a_message(db_url: str, args: list[str], message: str) -> None:
    result = run(db_url, GOBLIN, *args)
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("deck", "need", "said"),
    [
        (MEIO, "2 t:monster", "'monster' is a mea card type, not meio's"),  # refused once the deck's game is known
        (GOBLIN, "2 t:monstr", "unknown card type 'monstr'"),  # refused as it is parsed
        (GOBLIN, "2 bravery>=1", "bravery is not a value of mea cards"),
    ],
)
def test_a_need_the_decks_game_refuses_is_named_by_its_option(db_url: str, deck: str, need: str, said: str) -> None:
    """``draws meio-3-players.txt --need "2 t:monster"`` said "'t:monster': 'monster' is a mea card type…"
    without the option, where a typo (``t:monstr``) said "Invalid value for '--need'": both name it now."""
    result = run(db_url, deck, "--need", need)
    assert result.exit_code == 2, result.output
    assert (
        f"cardbase: error: Invalid value for '--need' / '-n': {quoted(need.split(' ', 1)[1])}: {said}" in result.stderr
    )


def test_meikyu_and_meio_limits(db_url: str) -> None:
    lands = run(db_url, MEIKYU, "--need", "t:land")
    assert lands.exit_code == 2 and "lands are the Meikyu pile" in lands.stderr
    too_far = run(db_url, MEIKYU, "--need", "t:character", "--cards", "20", "--players", "4")
    assert too_far.exit_code == 2 and "runs out" in too_far.stderr
    meio = run(db_url, MEIO, "--need", "3 suit:h", "--by-turn", "2")
    assert meio.exit_code == 2 and "no draws" in meio.stderr
    single = run_json(db_url, MEIO, "--need", "3 suit:h")
    assert single["cards_seen"] == 13
    assert single["probability"] == pytest.approx(hypergeom.sf(2, 40, 10, 13), abs=1e-12)


def test_a_deck_with_errors_exits_1_listing_them(db_url: str) -> None:
    result = run(db_url, str(EXAMPLES / "mea-broken.txt"), "--need", "t:monster")
    assert result.exit_code == 1
    assert "Goblen Surveyor" in result.stderr and "Gotcha!" in result.stderr


def test_help_has_an_example(db_url: str) -> None:
    result = runner.invoke(app, ["draws", "--help"])
    assert result.exit_code == 0 and "Example: cardbase draws" in result.stdout


def test_a_mea_sample_past_the_opening_says_what_was_drawn(db_url: str) -> None:
    """``--sample 1 --cards 7`` is Méa's opening 5 and then 2 cards drawn (the builder's goldfish):
    the heading says so, and one sample is not "hands"."""
    result = run(db_url, GOBLIN, "--sample", "1", "--seed", "1", "--cards", "7")
    assert result.exit_code == 0, result.output
    head = result.stdout.splitlines()[0]
    assert head.endswith(": Méa hands: the opening 5, then 2 drawn; 1 sample, seed 1"), head
    head = run(db_url, GOBLIN, "--sample", "5", "--seed", "1").stdout.splitlines()[0]
    assert head.endswith(": Méa opening hands of 5; 5 samples, seed 1"), head


def test_a_monte_carlo_estimate_has_no_more_digits_than_its_interval(db_url: str) -> None:
    """2,000 hands were shown 'Monte Carlo: 0.738000 (95% interval 0.718285–0.756802 …)': six digits
    of which the hands know two. The line, the table's column and the Meikyu redeals go through the
    formatter the lab's tables use (cardbase.stats.rate_text / shown)."""
    import re

    from cardbase.stats import rate_text

    args = [GOBLIN, "--need", "2 t:monster cost<=3", "--need", "1 t:assist", "--trials", "2000", "--seed", "1"]
    mc = run_json(db_url, *args, "--cards", "6")["monte_carlo"]
    assert mc["interval"] == "95% Wilson score"
    line = run(db_url, *args, "--cards", "6").stdout
    estimate, interval = rate_text(mc["probability"], mc["low"], mc["high"])
    assert f"Monte Carlo: {estimate} (95% Wilson interval {interval}, 2000 hands, seed 1)" in line
    assert not re.search(r"0\.\d{4}", line.split("Monte Carlo:")[1])
    table = run(db_url, *args).stdout
    assert not re.search(r"\d\.\d\d%\s*\(", table)  # the estimates of the table's column: whole points at 2,000
    meikyu = run(db_url, MEIKYU, "--players", "3", "--trials", "2000", "--seed", "1").stdout
    redeals = run_json(db_url, MEIKYU, "--players", "3", "--trials", "2000", "--seed", "1")["redeals_per_deal"]
    low, high = redeals["mean_95"]
    assert low < redeals["mean"] < high  # the mean has its interval …
    assert re.search(r"redeals per deal: mean \d\.\d\d? \(95% interval \d\.\d\d?–\d\.\d\d?; Monte Carlo", meikyu)
    assert "at least one: " in meikyu and "." not in meikyu.split("at least one: ")[1].split("%")[0]  # … and digits


@pytest.mark.parametrize("deals", [1, 2])
def test_the_mean_redeals_of_a_few_deals_is_not_sure(db_url: str, deals: int) -> None:
    """One deal's redeals read 'mean 5.0000 (95% interval ?–?)' (four digits of one deal), and two deals'
    had the normal interval, mean ± 1.96·s/√n (0–7 for 5 and 3 redeals, where Student's t gives 0–23).
    Now: Student's t, never below 0, and no spread seen is 0 to not known (null in --json)."""
    import re

    from cardbase.stats import t_quantile

    args = [MEIKYU, "--trials", str(deals), "--seed", "0"]
    redeals = run_json(db_url, *args)["redeals_per_deal"]
    low, high = redeals["mean_95"]
    line = run(db_url, *args).stdout
    shown = re.search(r"redeals per deal: mean (\S+) \(95% interval (\S+)–(\S+);", line)
    assert shown, line
    assert "." not in shown.group(1), line  # a few deals: whole redeals
    if deals == 1:
        assert (low, high) == (0.0, None) and shown.group(3) == "?", line
        return
    assert "t·s" in redeals["interval"] and low == 0.0 and high is not None
    # two deals of a and b redeals: s/√2 is |a − b| / 2, so t's half-width is t(1 df)·|a − b| / 2
    gap = 2 * (high - redeals["mean"]) / t_quantile(0.975, 1)
    assert gap >= 1 and gap == pytest.approx(round(gap)), (redeals, line)


def test_a_draws_plot_carries_the_decks_notes(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The plot travels without the terminal: it said how cards are seen, but not that Goblin Rush is
    cardbase's demo cards (the chances are of the values cardbase gave them), nor which unknown values
    were not counted."""
    from matplotlib.figure import Figure

    drawn: list[Figure] = []
    save = Figure.savefig

    def keep(self: Figure, *args: object, **kwargs: object) -> None:
        drawn.append(self)
        save(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Figure, "savefig", keep)
    deck = tmp_path / "vial.txt"
    deck.write_text("game: mea\nname: Vial\n\n30 Crumb Goblin\n2 Chemical Vial\n", encoding="utf-8")
    result = run(db_url, str(deck), "--need", "1 t:monster cost<=1", "--plot", str(tmp_path / "d.png"))
    assert result.exit_code == 0, result.output
    words = " ".join(t.get_text() for t in drawn[0].texts).replace("\n", " ")
    assert "demo cards" in words and "unknown cost" in words, words
