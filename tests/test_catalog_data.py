"""The shipped catalogs hold every fact the rulebooks give, and nothing invented."""

from __future__ import annotations

import json
from collections import Counter

import jsonschema
import pytest

from cardbase.catalog.loader import SHIPPED_FILES, game_cards, read_shipped, shipped_path
from cardbase.games.mea.cards import MeaCardType
from cardbase.games.meikyu.cards import RULEBOOK_COUNTS, MeikyuCardType
from cardbase.games.meio.cards import PlayingCard, deck_for
from cardbase.names import fold, slug
from tests.conftest import REPO


@pytest.mark.parametrize("filename", SHIPPED_FILES)
def test_shipped_file_matches_its_committed_schema(filename: str) -> None:
    data = json.loads(shipped_path(filename).read_text(encoding="utf-8"))
    schema = json.loads((REPO / "schema" / f"catalog.{data['game']}.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)


def test_schema_rejects_an_invented_field() -> None:
    schema = json.loads((REPO / "schema" / "catalog.meikyu.schema.json").read_text(encoding="utf-8"))
    bad = {
        "game": "meikyu",
        "set": "core",
        "source": "rulebook",
        "cards": [{"name": "Cook", "type": "character", "strength": 3}],
    }
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


@pytest.mark.parametrize("filename", SHIPPED_FILES)
def test_names_unique_under_folding(filename: str) -> None:
    names = [slug(c["name"]) for c in read_shipped(filename).cards]
    assert [n for n, k in Counter(names).items() if k > 1] == []


def test_meio_is_the_standard_deck_with_player_subsets() -> None:
    cards = game_cards("meio")
    assert len(cards) == 52
    assert len({c.card for c in cards}) == 52
    for players, size in ((2, 28), (3, 40), (4, 52)):
        subset = {c.card for c in cards if c.min_players <= players}
        assert len(subset) == size
        assert subset == set(deck_for(players))
    assert PlayingCard.parse("7H") in {c.card for c in cards if c.min_players == 2}
    assert PlayingCard.parse("8H") not in {c.card for c in cards if c.min_players == 2}


def test_meikyu_lands_are_the_sixteen_named_with_levels_and_no_points() -> None:
    lands = [c for c in game_cards("meikyu") if c.type is MeikyuCardType.LAND]
    assert len(lands) == 16
    levels = Counter(c.level for c in lands)
    assert levels == {4: 4, 5: 4, 6: 3, 7: 1, 8: 2, 9: 1, 10: 1}
    assert all(c.points is None and c.developed_points is None for c in lands)
    by_land = {c.land_name: c for c in lands}
    assert by_land["Marketplace"].name == "Den of the Geister"
    assert by_land["Castle Tower"].level == 9
    archives = next(c for c in lands if c.name == "Archives of the Dungeon Geek")
    assert archives.land_name is None  # the rulebook gives no land name for it


def test_meikyu_kingdom_cards_named_by_the_rulebook() -> None:
    cards = game_cards("meikyu")
    by_type: dict[MeikyuCardType, list[str]] = {}
    for c in cards:
        by_type.setdefault(c.type, []).append(c.name)
    assert len(by_type[MeikyuCardType.CHARACTER]) == 15
    assert {"Cook", "Doctor", "Merchant", "Happymancer", "Executioner", "Warzard", "Bee"} <= set(
        by_type[MeikyuCardType.CHARACTER]
    )
    assert set(by_type[MeikyuCardType.ITEM]) == {"Grimoire", "Amulet", "Sword", "Map"}
    assert by_type[MeikyuCardType.AGGRESSION] == ["Gotcha!"]
    assert set(by_type[MeikyuCardType.OPEN]) == {"Refugee", "Dungeon Storm", "Dungeon Tsunami"}
    characters = [c for c in cards if c.type is MeikyuCardType.CHARACTER]
    assert all(c.bravery is None and c.wits is None and c.copies is None for c in characters)
    assert sum(RULEBOOK_COUNTS.values()) == 100
    aliases = {fold(a): c.name for c in cards for a in c.aliases}
    assert aliases["cock"] == "Cook" and aliases["grimor"] == "Grimoire" and aliases["marchant"] == "Merchant"


def test_mea_rulebook_cards_have_unknown_stats() -> None:
    core = {c.name: c for c in game_cards("mea") if c.set == "core"}
    assert core["Selounticia"].type is MeaCardType.MONSTER
    assert core["Chemical Vial"].type is MeaCardType.ASSIST
    for card in (core["Selounticia"], core["Chemical Vial"]):
        assert card.cost is None and card.attack is None and card.defence is None and card.source == "rulebook"
    assert core["Yellow Tile"].copies == core["Blue Tile"].copies == 9


def test_mea_demo_set_is_large_enough_labelled_and_complete() -> None:
    demo = [c for c in game_cards("mea") if c.set == "demo"]
    monsters = [c for c in demo if c.type is MeaCardType.MONSTER]
    assists = [c for c in demo if c.type is MeaCardType.ASSIST]
    assert len(demo) >= 60 and len(monsters) >= 40 and len(assists) >= 20
    assert all(c.source == "demo" for c in demo)
    assert all(
        c.cost is not None and c.attack is not None and c.defence is not None and c.description for c in monsters
    )
    assert all(c.cost is not None and c.text for c in assists)
    vocabulary = (
        "When summoned",
        "When killed",
        "At the start of your turn",
        "At the end of your turn",
        "Take control",
        "Kill",
        "Flip",
        "Add",
        "Destroy",
        "Obliterate",
    )
    texts = " ".join(c.text or "" for c in demo)
    assert [w for w in vocabulary if w not in texts] == []
    assert read_shipped("mea_demo.json").note and "Not published" in read_shipped("mea_demo.json").note
