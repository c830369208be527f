"""Deck formats as data: what makes a deck legal, for any of the three games.

A format is pure data (sizes, limits, allowed and banned cards, composition by type,
named sections) so that house formats can be written in TOML without code. Each game's
package lists its standard formats.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Format:
    """The rules a deck of ``game`` must meet.

    ``None`` means "no rule": no size bound, no copy limit, any set, any type, any card.
    Card names are folded (case- and accent-insensitive) when compared.
    """

    game: str
    name: str
    description: str = ""
    min_cards: int | None = None
    max_cards: int | None = None
    copy_limit: int | None = None
    copy_limits: Mapping[str, int] = field(default_factory=dict)
    catalog_copies: bool = False
    allowed_sets: frozenset[str] | None = None
    allowed_types: frozenset[str] | None = None
    allowed_cards: frozenset[str] | None = None
    banned: frozenset[str] = frozenset()
    restricted: frozenset[str] = frozenset()
    composition: Mapping[str, int] = field(default_factory=dict)
    sections: Mapping[str, int] = field(default_factory=dict)
    standard: bool = True

    @property
    def size_text(self) -> str:
        """The deck size rule in words: ``18–40``, ``exactly 13``, ``any``."""
        low, high = self.min_cards, self.max_cards
        if low is not None and low == high:
            return f"exactly {low}"
        if low is not None and high is not None:
            return f"{low}–{high}"
        if low is not None:
            return f"at least {low}"
        if high is not None:
            return f"at most {high}"
        return "any"

    @property
    def copy_limit_text(self) -> str:
        if self.copy_limit is None and not self.copy_limits and not self.catalog_copies:
            return "no copy limit"
        parts = []
        if self.copy_limit is not None:
            parts.append(f"at most {self.copy_limit} of any card")
        if self.catalog_copies:
            parts.append("no more copies than the set has, where the catalog knows the count")
        parts += [f"at most {n} {card}" for card, n in self.copy_limits.items()]
        return "; ".join(parts)
