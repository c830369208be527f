"""JSON Schemas generated from the file models; ``schema/`` holds the committed copies."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from cardbase.catalog.models import CATALOG_MODELS

# Extra schemas registered by feature packages (e.g. the deck file): filename → schema factory.
EXTRA_SCHEMAS: dict[str, Callable[[], dict[str, Any]]] = {}


def render_schemas() -> dict[str, str]:
    """Every schema file's name and its exact text."""
    schemas: dict[str, dict[str, Any]] = {}
    for game, model in CATALOG_MODELS.items():
        schema = model.model_json_schema()
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["title"] = f"cardbase {game} catalog file"
        schemas[f"catalog.{game}.schema.json"] = schema
    for filename, factory in EXTRA_SCHEMAS.items():
        schemas[filename] = factory()
    return {
        name: json.dumps(s, ensure_ascii=False, indent=2, sort_keys=True) + "\n" for name, s in sorted(schemas.items())
    }
