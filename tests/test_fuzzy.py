"""The one did-you-mean matcher (cardbase.fuzzy.closest) and the one Wilson interval (cardbase.stats)."""

from __future__ import annotations

import math

import pytest

from cardbase.catalog.fields import GAME_NAMES
from cardbase.fuzzy import Near, closest, closest_cards, near_text
from cardbase.sim.stats import wilson_interval
from cardbase.stats import wilson


def test_closest_folds_the_name_and_returns_values_best_first_once() -> None:
    choices = {"grimoire": "Grimoire", "grimor": "Grimoire", "amulet": "Amulet", "sword": "Sword"}
    assert closest("GRIMOIR", choices) == ["Grimoire"]
    assert closest("Amulett", choices, n=1) == ["Amulet"]
    assert closest("zzz", choices) == []


def test_closest_partial_takes_keys_containing_the_name_when_none_is_close() -> None:
    choices = {"red dragon of the north": "Red Dragon of the North", "crumb goblin": "Crumb Goblin"}
    assert closest("dragon", choices, cutoff=0.9) == []
    assert closest("dragon", choices, cutoff=0.9, partial=True) == ["Red Dragon of the North"]


def test_one_wilson_interval_for_draws_and_sims() -> None:
    low, high = wilson(30, 100)
    p, lo2, hi2 = wilson_interval(30, 100)
    assert (lo2, hi2) == (low, high) and p == 0.3
    # Known value (Wilson 1927; e.g. Newcombe 1998, table I): 81/263 → 0.2553 … 0.3662.
    low, high = wilson(81, 263)
    assert round(low, 4) == 0.2553 and round(high, 4) == 0.3662
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert all(math.isnan(x) for x in wilson_interval(0, 0))
    with pytest.raises(ValueError):
        wilson(0, 0)


KEYED = [
    ("ember fox", "Ember Fox", "mea"),
    ("cinder fog", "Cinder Fog", "meikyu"),
    ("room of the money eater", "Room of the Money Eater", "meikyu"),
]


def test_the_games_own_names_come_first_and_anothers_says_its_game() -> None:
    # the game's own first; another game's after them only if close (a misspelling of it), saying its game
    assert closest_cards("Cindr Fox", KEYED, "mea", cutoff=0.5) == [Near("Ember Fox"), Near("Cinder Fog", "meikyu")]
    assert closest_cards("Embr Fox", KEYED, "mea") == [Near("Ember Fox")]  # Cinder Fog: not close, never said
    assert closest_cards("Room of the Mony Eater", KEYED, "mea") == [Near("Room of the Money Eater", "meikyu")]
    # no game asked: every game's alike, each saying its game when they are of several
    assert closest_cards("Cindr Fox", KEYED, None, cutoff=0.5) == [
        Near("Cinder Fog", "meikyu"),
        Near("Ember Fox", "mea"),
    ]
    assert closest_cards("Cindr Fox", KEYED[:1], None, cutoff=0.5) == [Near("Ember Fox")]
    # the words: quoted, another game's with its game as the face words a game
    said = near_text(closest_cards("Cindr Fox", KEYED, "mea", cutoff=0.5), GAME_NAMES.__getitem__, " or ")
    assert said == "'Ember Fox' or 'Cinder Fog' (a Meikyu card)"
