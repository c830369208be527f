"""Name normalisation shared by the catalog, search and deck files."""

from __future__ import annotations

import re
import unicodedata

_NON_WORD = re.compile(r"[^a-z0-9]+")


def fold(text: str) -> str:
    """Case- and accent-insensitive form of ``text``: ``"Méa"`` → ``"mea"``."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.casefold().split())


def slug(text: str) -> str:
    """URL- and file-safe form of a name: ``"Gotcha!"`` → ``"gotcha"``."""
    return _NON_WORD.sub("-", fold(text)).strip("-")
