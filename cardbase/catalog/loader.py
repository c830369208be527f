"""Read catalog files (shipped or user-written) into game card definitions."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from cardbase.errors import UnreadableInput

SHIPPED_FILES: tuple[str, ...] = ("mea.json", "mea_demo.json", "meikyu.json", "meio.json")


@dataclass(frozen=True, slots=True)
class CatalogData:
    """One catalog file, read and checked: its set, source and card records."""

    game: str
    set: str
    set_name: str | None
    source: str
    note: str | None
    cards: tuple[dict[str, Any], ...]
    digest: str


def shipped_path(filename: str) -> Path:
    """Path of a shipped catalog file."""
    return Path(str(resources.files("cardbase.catalog") / "data" / filename))


def shipped_digest(filename: str) -> str:
    """The SHA-256 (hex) of a shipped catalog file: what the database notes when it loads it."""
    return hashlib.sha256(shipped_path(filename).read_bytes()).hexdigest()


def parse_catalog(raw: bytes, origin: str) -> CatalogData:
    """Check ``raw`` (a catalog file's bytes) against its game's model; errors name ``origin``."""
    from pydantic import ValidationError

    from cardbase.catalog.models import CATALOG_MODELS

    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise UnreadableInput(f"{origin}: not a JSON catalog file: {error}") from None
    game = data.get("game") if isinstance(data, dict) else None
    if game not in CATALOG_MODELS:
        raise UnreadableInput(f"{origin}: field 'game' must be one of {sorted(CATALOG_MODELS)}")
    try:
        model = CATALOG_MODELS[game].model_validate(data)
    except ValidationError as error:
        from cardbase.errors import schema_message

        first = error.errors()[0]
        raise UnreadableInput(schema_message(origin, dict(first))) from None
    cards = tuple(c.model_dump() for c in model.cards)  # type: ignore[attr-defined]
    return CatalogData(
        game=game,
        set=model.set,
        set_name=model.set_name,
        source=model.source,
        note=model.note,
        cards=cards,
        digest=hashlib.sha256(raw).hexdigest(),
    )


def read_shipped(filename: str) -> CatalogData:
    """One shipped catalog file."""
    return parse_catalog(shipped_path(filename).read_bytes(), filename)


def game_cards(game: str) -> list[Any]:
    """The shipped cards of ``game`` as the game's frozen card definitions."""
    from cardbase.games.mea.abilities import parse_abilities
    from cardbase.games.mea.cards import MeaCard, MeaCardType
    from cardbase.games.meikyu.cards import MeikyuCard, MeikyuCardType
    from cardbase.games.meio.cards import MeioCard, Suit

    out: list[Any] = []
    for filename in SHIPPED_FILES:
        data = read_shipped(filename)
        if data.game != game:
            continue
        for record in data.cards:
            common = {
                "name": record["name"],
                "set": data.set,
                "source": data.source,
                "aliases": tuple(record.get("aliases", ())),
            }
            if game == "mea":
                abilities = record.get("abilities")
                out.append(
                    MeaCard(
                        type=MeaCardType(record["type"]),
                        abilities=None if abilities is None else parse_abilities(abilities, record["type"]),
                        cost=record.get("cost"),
                        attack=record.get("attack"),
                        defence=record.get("defence"),
                        text=record.get("text"),
                        description=record.get("description"),
                        copies=record.get("copies"),
                        notes=record.get("notes"),
                        **common,
                    )
                )
            elif game == "meikyu":
                out.append(
                    MeikyuCard(
                        type=MeikyuCardType(record["type"]),
                        land_name=record.get("land_name"),
                        level=record.get("level"),
                        points=record.get("points"),
                        developed_points=record.get("developed_points"),
                        bravery=record.get("bravery"),
                        wits=record.get("wits"),
                        text=record.get("text"),
                        copies=record.get("copies"),
                        notes=record.get("notes"),
                        **common,
                    )
                )
            else:
                out.append(
                    MeioCard(
                        rank=record["rank"], suit=Suit(record["suit"]), min_players=record["min_players"], **common
                    )
                )
    return out
