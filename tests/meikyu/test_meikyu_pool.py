"""The card pool: what the catalog lacks, assumption profiles, and the rules' options."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardbase.catalog.meikyu_profiles import InvalidProfile, load_profile, profile_path, shipped_cards, shipped_pool
from cardbase.errors import UnreadableInput
from cardbase.games.base import InvalidRules
from cardbase.games.meikyu.engine import MeikyuRules
from cardbase.games.meikyu.pool import (
    CardPool,
    ProfileProblems,
    assumed_census,
    missing_census,
    parse_profile,
    resolve_pool,
    share,
)
from tests.meikyu.helpers import default_pool


def test_without_values_the_catalog_lists_every_missing_one():
    resolution = resolve_pool(shipped_cards())
    assert resolution.pool is None and not resolution.problems
    missing = "\n".join(resolution.missing)
    assert "Bee (character): bravery, wits, copies" in missing
    assert "Den of the Geister (land): points, developed_points" in missing
    assert "Sword (item): copies" in missing
    assert "Refugee (open): copies" in missing
    assert "lands: 16 of the rulebook's 32 not catalogued" in missing
    assert "Gotcha!" not in missing  # the rulebook's 4 Gotcha! cards are known
    # 16 lands × 2 points + 15 classes × 3 + 4 items + 3 OPEN cards, and 16 lands not catalogued; how
    # many OPEN cards are not catalogued the unknown copies do not say yet ("at least")
    assert (resolution.census.values, resolution.census.cards) == (32 + 45 + 4 + 3, 16)
    assert str(resolution.census) == "84 values and at least 16 whole cards"
    assert str(missing_census(shipped_cards())) == str(resolution.census)


def test_the_default_profile_completes_the_pool_and_says_what_it_assumed():
    pool = default_pool()
    assert pool.profile == "default"
    values = [a for a in pool.assumed if not a.endswith("(card not in the rulebook)")]
    cards = [a for a in pool.assumed if a.endswith("(card not in the rulebook)")]
    assert len(values) == 32 + 45 + 4 + 3 and len(cards) == 17
    assert (
        str(assumed_census(pool.assumed)) == "84 values and 17 whole cards"
    )  # the profile's copies count the OPEN gap
    assert "Bee bravery" in values and "Unknown OPEN card (card not in the rulebook)" in cards
    levels = sorted(land.level for land in pool.lands)
    assert levels.count(4) == 8 and levels.count(10) == 2 and len(levels) == 32


def test_a_catalogued_value_wins_over_the_profile():
    cards = [replace(c, points=5, developed_points=7) if c.name == "Cave of the Dragon" else c for c in shipped_cards()]
    cards = [replace(c, bravery=9) if c.name == "Bee" else c for c in cards]
    pool = resolve_pool(cards, load_profile("default")).pool
    cave = next(land for land in pool.lands if land.name == "Cave of the Dragon")
    bee = next(k for k in pool.kingdom if k.name == "Bee")
    assert (cave.points, cave.developed_points, bee.bravery) == (5, 7, 9)
    assert "Cave of the Dragon points" not in pool.assumed and "Bee bravery" not in pool.assumed
    assert "Bee wits" in pool.assumed


def test_catalogued_lands_take_the_place_of_unnamed_ones():
    real = [replace(c, points=1, developed_points=2) if c.type == "land" else c for c in shipped_cards()]
    extra = [replace(real[0], name=f"Real room {i}", land_name=None, level=5) for i in range(3)]
    pool = resolve_pool(real + extra, load_profile("default")).pool
    names = {land.name for land in pool.lands}
    assert {"Real room 0", "Real room 2"} <= names and "Unnamed room 13" in names and "Unnamed room 14" not in names
    assert pool.land_count == 32


def test_counts_must_match_the_rulebook():
    """Catalogued counts that alone exceed the rulebook's total are refused, naming those cards."""
    every = [replace(c, copies=3) if c.type == "character" else c for c in shipped_cards()]  # 15 × 3, no profile's
    catalogued = resolve_pool(every, load_profile("default")).problems
    said = "characters: the catalogued copies add up to 45 (Bee 3, Cook 3, "
    assert any(p.startswith(said) and p.endswith("; the rulebook says 42") for p in catalogued), catalogued
    too_many = [replace(c, copies=30) if c.name in ("Bee", "Warzard") else c for c in shipped_cards()]
    resolution = resolve_pool(too_many, load_profile("default"))
    assert resolution.pool is None
    assert (
        "characters: the catalogued copies add up to 60 (Bee 30, Warzard 30), which leaves 0 for the 13 cards "
        "whose copies the profile 'default' assumes; the rulebook says 42" in resolution.problems
    ), resolution.problems


@pytest.mark.parametrize(("name", "copies"), [("Warzard", 3), ("Warzard", 1), ("Bee", 10), ("Cook", 6)])
def test_the_profile_fills_only_the_copies_the_catalog_does_not_give(name: str, copies: int) -> None:
    """An owner enters one class's real copies (Warzard 3, where the profile assumed 2) and plays with
    the default profile: the other classes share the rest of the rulebook's 42, in the profile's
    proportions, and stay marked assumed; the catalogued count is the catalog's."""
    cards = [replace(c, copies=copies) if c.name == name else c for c in shipped_cards()]
    resolution = resolve_pool(cards, load_profile("default"))
    assert resolution.pool is not None, resolution.problems
    pool = resolution.pool
    assert pool.count("character") == 42
    by_name = {k.name: k.copies for k in pool.kingdom if k.type == "character"}
    assert by_name[name] == copies and f"{name} copies" not in pool.assumed
    default = {k.name: k.copies for k in shipped_pool().kingdom if k.type == "character"}
    for other, n in by_name.items():
        if other != name:
            assert f"{other} copies" in pool.assumed
            assert abs(n - default[other]) <= 1 if abs(copies - default[name]) <= 2 else n >= 1


def test_share_keeps_the_proportions_in_whole_copies() -> None:
    assert share(39, [2, 3, 3]) == [10, 15, 14]  # 9.75, 14.625, 14.625: the larger remainders, in order
    assert share(4, [1, 1, 1]) == [2, 1, 1]
    assert share(3, [10, 1, 1]) == [1, 1, 1]  # each at least one
    assert sum(share(40, [3] * 12 + [2] * 2)) == 40
    assert share(5, [0, 0]) == [3, 2]  # a profile giving none: shared evenly (it divided by zero)


@given(st.lists(st.integers(0, 50), min_size=1, max_size=20), st.integers(0, 200))
def test_share_gives_every_card_one_and_the_total_exactly(weights: list[int], extra: int) -> None:
    total = len(weights) + extra
    parts = share(total, weights)
    assert sum(parts) == total and min(parts) >= 1 and len(parts) == len(weights)


def test_a_card_the_profile_gives_no_copies_takes_no_share() -> None:
    data = json.loads(profile_path("default").read_text())
    cards = shipped_cards()
    known = next(c for c in cards if c.type == "character")
    zero = next(c for c in cards if c.type == "character" and c.name != known.name)
    data["cards"].setdefault(zero.name, {})["copies"] = 0
    resolution = resolve_pool(
        [replace(c, copies=3) if c.name == known.name else c for c in cards], parse_profile(data, "zero.json")
    )
    assert resolution.pool is not None, resolution.problems
    by_name = {k.name: k.copies for k in resolution.pool.kingdom if k.type == "character"}
    assert by_name.get(zero.name, 0) == 0 and by_name[known.name] == 3 and resolution.pool.count("character") == 42


def test_a_profile_that_names_an_unknown_card_is_refused_with_a_suggestion():
    data = json.loads(profile_path("default").read_text())
    data["cards"]["Beee"] = {"bravery": 1}
    profile = parse_profile(data, "mine.json")
    resolution = resolve_pool(shipped_cards(), profile)
    assert resolution.pool is None
    assert any("'Beee', which is not a catalogued Meikyu card (did you mean 'Bee'?)" in p for p in resolution.problems)


def test_a_partial_profile_still_lists_what_is_missing():
    data = json.loads(profile_path("default").read_text())
    del data["cards"]["Bee"]
    resolution = resolve_pool(shipped_cards(), parse_profile(data, "mine.json"))
    assert resolution.pool is None and resolution.missing == ("Bee (character): bravery, wits, copies",)


def test_profile_files_are_validated_with_every_problem_named(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps(
            {
                "name": "mine",
                "label": "real",
                "colour": 1,
                "cards": {"Bee": {"bravery": -1, "speed": 2}, "Cook": 3, "Ant": {"wits": 10**30}},
                "extra_cards": [{"name": "X", "type": "land", "level": 0, "copies": 10**6}],
            }
        )
    )
    with pytest.raises(InvalidProfile) as error:
        load_profile(str(bad))
    text = str(error.value)
    assert error.value.exit_code == 1
    assert text.startswith(f"assumption profile {bad}: ")  # the file, then each key with its bound
    for part in (
        "unknown key 'colour'",
        "'label' must be \"assumed\"",
        "cards.Bee.bravery: must be a whole number from 0 to 1,000, not -1",
        "cards.Ant.wits: must be a whole number from 0 to 1,000, not 1000000000000000000000000000000",
        "extra_cards[0] (X): 'copies' must be a whole number from 1 to 1,000, not 1000000",
        "cards.Bee: unknown field 'speed'",
        "cards.Cook: must be an object",
        "extra_cards[0] (X): 'level' must be a whole number from 1 to 1,000",
        "extra_cards[0] (X): 'points' must be a whole number from 0 to 1,000, not None",
    ):
        assert part in text
    notjson = tmp_path / "x.json"
    notjson.write_text("{oops")
    with pytest.raises(UnreadableInput, match="line 1, column 2: not JSON"):
        load_profile(str(notjson))
    with pytest.raises(UnreadableInput, match="no assumption profile 'nope'"):
        load_profile("nope")
    with pytest.raises(ProfileProblems):
        parse_profile([], "list.json")


def test_the_shipped_profile_explains_every_value():
    data = json.loads(profile_path("default").read_text())
    assert data["label"] == "assumed" and data["name"] == "default"
    for name, entry in data["cards"].items():
        assert entry.get("why"), name
    for entry in data["extra_cards"]:
        assert entry.get("why"), entry["name"]
    for topic in ("lands", "unnamed lands", "characters", "items", "open"):
        assert data["reasoning"][topic]


def test_pool_and_rules_round_trip_their_options():
    pool = default_pool()
    assert CardPool.from_dict(json.loads(json.dumps(pool.to_dict()))) == pool
    rules = MeikyuRules(pool, players=3, farm="points", aggression_target="defender", map_room="discarded")
    again = MeikyuRules.from_options(json.loads(json.dumps(rules.to_options())))
    assert again == rules and again.tables is rules.tables
    with pytest.raises(InvalidRules, match="needs a card pool"):
        MeikyuRules.from_options({"players": 3})
    with pytest.raises(InvalidRules, match="2 to 5 players"):
        MeikyuRules(pool, players=6)
    with pytest.raises(InvalidRules, match="farm must be one of lands, points"):
        MeikyuRules(pool, farm="capacity")
    with pytest.raises(InvalidRules, match="unknown Meikyu option 'dice'"):
        MeikyuRules.from_options({**rules.to_options(), "dice": 2})
    broken = rules.to_options()
    broken["pool"]["lands"][0][2] = "four"
    with pytest.raises(InvalidRules, match=r"lands\[0\] level must be a whole number"):
        MeikyuRules.from_options(broken)
    assert rules.report_notes() and rules.report_notes()[0].startswith("ASSUMED VALUES: 84 values and 17 whole cards")


def test_played_values_say_which_values_the_table_took_from_the_profile() -> None:
    from cardbase.games.meikyu.pool import played_values

    cards = [replace(c, bravery=3) if c.name == "Warzard" else c for c in shipped_cards()]
    pool = resolve_pool(cards, load_profile("default")).pool
    assert pool is not None
    known, assumed = played_values(pool, "Warzard")
    assert known == {"bravery": 3} and set(assumed) == {"wits"}
    assert played_values(pool, "Amulet") == ({}, {}) and played_values(pool, "No such card") is None
