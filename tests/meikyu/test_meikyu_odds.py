"""The exact odds (and ``cardbase odds meikyu``) against brute-force enumeration of the dice."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import pytest
from typer.testing import CliRunner

from cardbase.cli.app import app
from cardbase.games.meikyu.odds import (
    at_least_float,
    attack_chance,
    attack_chance_float,
    die_at_least,
    quest_chance,
    quest_odds,
    quest_swords,
)

FACES = range(1, 7)


def brute_quest(swords: int, level: int, mine: int, rivals: int) -> Fraction:
    """Every sequence of dice long enough for every reroll: the quester rerolls a failure while
    holding an Amulet, the rivals reroll a success while holding one."""
    length = mine + rivals + 1
    wins = 0
    for dice in product(FACES, repeat=length):
        a, r, i = mine, rivals, 0
        while True:
            ok = swords + dice[i] >= level
            if ok and r:
                r, i = r - 1, i + 1
            elif not ok and a:
                a, i = a - 1, i + 1
            else:
                break
        wins += ok
    return Fraction(wins, 6**length)


def brute_attack(diff: int, a: int, b: int) -> Fraction:
    """The aggression game tree walked in full: the attacker's die, a window (attacker, then
    defender may reroll it), the defender's die, a window; both sides play their best."""

    def roll(stage: int, d1: int, a: int, b: int) -> Fraction:
        return (
            sum((window(stage, d1 if stage == 2 else d, d if stage == 2 else 0, a, b) for d in FACES), Fraction(0)) / 6
        )

    def window(stage: int, d1: int, d2: int, a: int, b: int) -> Fraction:
        def pass_on() -> Fraction:
            if stage == 1:
                return roll(2, d1, a, b)
            return Fraction(int(diff + d1 > d2))

        def reroll(a2: int, b2: int) -> Fraction:
            return roll(stage, d1, a2, b2)

        defender = pass_on() if b == 0 else min(pass_on(), reroll(a, b - 1))
        return defender if a == 0 else max(defender, reroll(a - 1, b))

    return roll(1, 0, a, b)


@pytest.mark.parametrize("need", range(-2, 10))
def test_one_die(need):
    assert die_at_least(need) == Fraction(sum(1 for d in FACES if d >= need), 6)
    assert at_least_float(need) == float(die_at_least(need))


@pytest.mark.parametrize("swords", [0, 1, 3, 5, 9])
@pytest.mark.parametrize("level", [4, 6, 8, 10])
@pytest.mark.parametrize(("mine", "rivals"), [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (1, 1), (2, 1), (1, 2), (0, 2)])
def test_quest_chance_matches_enumerating_every_die(swords, level, mine, rivals):
    assert quest_chance(swords, level, mine, rivals) == brute_quest(swords, level, mine, rivals)


def test_quest_bonuses_fortress_blacksmith_and_map():
    assert quest_swords(3, characters=2, fortress=True) == 5
    assert quest_swords(3, characters=1, fortress=True) == 3
    assert quest_swords(3, blacksmith=True, sword_cards=2) == 5
    odds = quest_odds(3, 10, characters=2, fortress=True, blacksmith=True, sword_cards=1, map_played=True, amulets=1)
    assert (odds.swords, odds.level, odds.need) == (6, 8, 2)
    assert odds.chance == brute_quest(6, 8, 1, 0) == Fraction(35, 36)
    assert odds.without_amulets == Fraction(5, 6)


@pytest.mark.parametrize("diff", range(-7, 8))
def test_attack_without_amulets_matches_the_36_pairs(diff):
    expected = Fraction(sum(1 for x in FACES for y in FACES if diff + x > y), 36)
    assert attack_chance(diff + 3, 3) == expected
    assert attack_chance_float(diff) == float(expected)


@pytest.mark.parametrize("diff", [-4, -1, 0, 2, 5])
@pytest.mark.parametrize(("a", "b"), [(1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (2, 0)])
def test_attack_with_amulets_matches_the_whole_game_tree(diff, a, b):
    chance = attack_chance(diff + 4, 4, a, b)
    assert chance == brute_attack(diff, a, b)
    base = attack_chance(diff + 4, 4)
    assert (chance >= base) if b == 0 else True
    assert (chance <= base) if a == 0 else True


runner = CliRunner()


def test_odds_cli_prints_the_exact_numbers():
    result = runner.invoke(
        app, ["odds", "meikyu", "quest", "--swords", "3", "--level", "7", "--amulets", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert Fraction(data["chance"]) == brute_quest(3, 7, 1, 0) == Fraction(3, 4)
    assert data["die_needed"] == 4 and data["by_amulets"]["2"] == str(brute_quest(3, 7, 2, 0))
    text = runner.invoke(app, ["odds", "meikyu", "quest", "-s", "4", "-l", "9", "--characters", "2", "--fortress"])
    assert "6 against level 9: a die of 3 or more" in text.stdout and "2/3 = 66.67%" in text.stdout
    attack = runner.invoke(
        app,
        [
            "odds",
            "meikyu",
            "attack",
            "--swords",
            "3",
            "--defence",
            "2",
            "--amulets",
            "1",
            "--defender-amulets",
            "1",
            "--json",
        ],
    )
    assert Fraction(json.loads(attack.stdout)["chance"]) == brute_attack(1, 1, 1)
    develop = runner.invoke(app, ["odds", "meikyu", "develop", "--wits", "5", "--level", "6", "--harem"])
    assert "succeeds (certain)" in develop.stdout
    bad = runner.invoke(app, ["odds", "meikyu", "quest", "--swords", "-1", "--level", "4"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


def test_a_chance_that_can_happen_never_reads_zero_or_certain():
    """0 swords against level 6, 12 Amulets in rivals' hands: one chance in 13,060,694,016 read '= 0.00%'
    (and one short of certain would read 100.00%): the percent beside an exact fraction took two decimals
    whatever the fraction. It is stats.percent now, as draws' exact chances are."""
    args = ["odds", "meikyu", "quest", "--swords", "0", "--level", "6", "--rival-amulets", "12", "--amulets", "12"]
    text = runner.invoke(app, args).stdout
    tiny = Fraction(1, 6**13)  # a 6 on the die, then on each of the rivals' 12 rerolls
    assert f"0: {tiny} = " in text, text
    said = text.split(f"0: {tiny} = ", 1)[1].split("%", 1)[0]
    assert float(said) > 0, text
    assert "0.00%" not in text and "100.00%" not in text, text
    sure = runner.invoke(app, ["odds", "meikyu", "quest", "--swords", "0", "--level", "1"]).stdout
    assert "1 = 100%" in sure, sure  # a chance of 1 is certain: 100%, as draws says it
