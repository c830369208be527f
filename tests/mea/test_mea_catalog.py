"""Abilities in the catalog and the database: stored, carried into MeaCard, and the schema 1 → 2 upgrade."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import inspect, select, text

from cardbase.catalog.loader import game_cards
from cardbase.db.catalog import write_cards
from cardbase.db.engine import open_database
from cardbase.db.models import SCHEMA_VERSION, Card, Meta
from cardbase.errors import InvalidData
from cardbase.games.mea.abilities import render_card
from cardbase.sim.mea import card_from_row


def test_the_loader_carries_abilities_into_mea_cards():
    cards = {c.name: c for c in game_cards("mea")}
    squire = cards["Naïve Squire"]
    assert squire.abilities is not None and render_card(squire.abilities) == squire.text
    assert cards["Crumb Goblin"].abilities == () and not cards["Crumb Goblin"].unexpressed
    selounticia = cards["Selounticia"]
    assert selounticia.abilities is None and selounticia.unexpressed
    assert selounticia.unknown_stats == ("cost", "attack", "defence")
    assert all(c.abilities is not None for c in cards.values() if c.source == "demo")


def test_write_cards_stores_abilities_and_the_database_gives_them_back(database):
    with database.session() as s:
        row = s.scalars(select(Card).where(Card.name == "Tile Titan")).one()
        stored = json.loads(row.abilities)
        card = card_from_row(row)
    assert stored[0] == {"trigger": "summoned", "effect": "kill", "filter": {"adjacent": True}}
    assert render_card(card.abilities) == card.text
    with database.session() as s:
        plain = s.scalars(select(Card).where(Card.name == "Selounticia")).one()
        assert plain.abilities is None


def test_changing_a_cards_text_without_abilities_clears_them(database):
    with database.transaction() as s:
        write_cards(s, "mea", "demo", "file:x.csv", [{"name": "Naïve Squire", "text": "When summoned: Draw 2 cards."}])
    with database.session() as s:
        row = s.scalars(select(Card).where(Card.name == "Naïve Squire")).one()
        assert row.abilities is None and card_from_row(row).unexpressed


def test_abilities_in_a_record_are_checked(database):
    with pytest.raises(InvalidData, match="effect: one of"), database.transaction() as s:
        write_cards(
            s,
            "mea",
            "mine",
            "file:x.json",
            [{"name": "Ogre", "type": "monster", "abilities": [{"trigger": "summoned", "effect": "explode"}]}],
        )
    with database.transaction() as s:
        write_cards(
            s,
            "mea",
            "mine",
            "file:x.json",
            [
                {
                    "name": "Ogre",
                    "type": "monster",
                    "abilities": [{"trigger": "summoned", "effect": "draw", "amount": 2}],
                }
            ],
        )
    with database.session() as s:
        row = s.scalars(select(Card).where(Card.name == "Ogre")).one()
        assert json.loads(row.abilities) == [{"trigger": "summoned", "effect": "draw", "amount": 2}]


def make_version_1(url: str) -> None:
    """A database as schema 1 had it: no card.abilities, schema_version 1, a user's own card."""
    database = open_database(url)
    with database.transaction() as s:
        write_cards(s, "mea", "mine", "file:mine.csv", [{"name": "Home Brew", "type": "monster", "cost": 2}])
    with database.engine.begin() as conn:
        conn.execute(text("ALTER TABLE card DROP COLUMN abilities"))
        conn.execute(text("ALTER TABLE deck DROP COLUMN version"))  # schema 6's
        conn.execute(text("UPDATE meta SET value = '1' WHERE key = 'schema_version'"))
    database.engine.dispose()


def test_a_version_1_database_is_upgraded_by_its_migration(empty_db_url: str):
    make_version_1(empty_db_url)
    from sqlalchemy import create_engine

    raw = create_engine(empty_db_url.replace("postgresql://", "postgresql+psycopg://"))
    with raw.connect() as conn:
        assert "abilities" not in [c["name"] for c in inspect(conn).get_columns("card")]
        assert conn.execute(text("SELECT value FROM meta WHERE key = 'schema_version'")).scalar() == "1"
    raw.dispose()
    assert SCHEMA_VERSION >= 2  # upgraded through every migration since version 1
    upgraded = open_database(empty_db_url)
    with upgraded.session() as s:
        assert s.get(Meta, "schema_version").value == str(SCHEMA_VERSION)
        assert "abilities" in [c["name"] for c in inspect(upgraded.engine).get_columns("card")]
        squire = s.scalars(select(Card).where(Card.name == "Naïve Squire")).one()
        assert json.loads(squire.abilities) == [{"trigger": "summoned", "effect": "draw", "amount": 1}]
        mine = s.scalars(select(Card).where(Card.name == "Home Brew")).one()
        assert mine.cost == 2 and mine.abilities is None and mine.source == "file:mine.csv"
    upgraded.engine.dispose()


def test_the_upgrade_on_a_file(tmp_path: Path):
    path = tmp_path / "old.db"
    make_version_1(f"sqlite:///{path}")
    database = open_database(str(path))
    with database.session() as s:
        assert s.get(Meta, "schema_version").value == str(SCHEMA_VERSION)
        row = s.scalars(select(Card).where(Card.name == "Dragon Sneeze")).one()
        assert card_from_row(row).abilities
    database.engine.dispose()
