"""Reports describe the rules in words, not Python settings (issue 13)."""

from __future__ import annotations

from cardbase.sim.wording import rules_in_words
from tests.hostile.conftest import run_cli


def test_meio_rules_in_words() -> None:
    text = rules_in_words("meio", {"players": 3, "ace_high": True, "hearts_anytime": True, "rounds": 3})
    assert text == "ace high, hearts may be led at any time, 3 rounds"
    assert "ace low" in rules_in_words("meio", {"ace_high": False})


def test_unphrased_options_never_read_as_python() -> None:
    text = rules_in_words("mea", {"tiles_per_colour": 9, "list_losing_draws": False})
    assert text == "tiles per colour 9, no list losing draws"
    assert "=" not in text and "True" not in text and "False" not in text


def test_sim_reports_print_words(db_url: str) -> None:
    meio = run_cli(["sim", "meio", "--players", "3", "--agents", "heuristic,random,random", "--games", "3"])
    assert meio.exit_code == 0, meio.output
    assert "ace high" in meio.stdout and "=True" not in meio.stdout
    meikyu = run_cli(
        ["sim", "meikyu", "--players", "3", "--agents", "random,random,random", "--games", "2", "--assume", "default"],
        db_url,
    )
    assert meikyu.exit_code == 0, meikyu.output
    assert "farm=" not in meikyu.stdout and "the Farm adds a point" in " ".join(meikyu.stdout.split())
