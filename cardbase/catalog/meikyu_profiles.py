"""Meikyu assumption profiles: the shipped ``default`` one and a user's own JSON files.

A profile supplies values the rulebook does not give (land points, Bravery and Wits,
counts) and the cards it does not name (16 lands, the fourth OPEN card), each labelled
"assumed" with its reasoning. See ``cardbase/catalog/data/meikyu_profile_default.json``
and ``docs/rules/meikyu.md``.
"""

from __future__ import annotations

from pathlib import Path

from cardbase.catalog.loader import game_cards, shipped_path
from cardbase.errors import CardbaseError, UnreadableInput, counted, quoted
from cardbase.games.meikyu.cards import MeikyuCard
from cardbase.games.meikyu.pool import CardPool, Profile, ProfileProblems, Resolution, parse_profile, resolve_pool
from cardbase.textfiles import load_json, path_problem, read_text

MAX_PROFILE_BYTES = 1_000_000

SHIPPED_PROFILES: dict[str, str] = {"default": "meikyu_profile_default.json"}


class InvalidProfile(CardbaseError, ValueError):
    """A profile file that was read but is invalid; every problem is listed."""

    exit_code = 1

    def __init__(self, origin: str, problems: list[str]):
        self.origin = origin
        self.problems = problems
        head = f"assumption profile {origin}: {counted(len(problems), 'problem')}:"
        super().__init__(self._listing(head, problems, 100))


def profile_path(name: str) -> Path:
    """The file of a shipped profile, or ``name`` itself as a path."""
    if name in SHIPPED_PROFILES:
        return shipped_path(SHIPPED_PROFILES[name])
    return Path(name)


def load_profile(name: str) -> Profile:
    """The shipped profile ``name`` (``default``) or the profile in the JSON file ``name``.

    A file that cannot be read or is not JSON is :class:`UnreadableInput` (exit 2); one
    that is JSON but not a valid profile is :class:`InvalidProfile` (exit 1), listing
    every problem.
    """
    path = profile_path(name)
    origin = name if name in SHIPPED_PROFILES else str(path)
    if name not in SHIPPED_PROFILES and (path_problem(name) is not None or not path.exists()):
        known = ", ".join(SHIPPED_PROFILES)
        if not name.strip():
            raise UnreadableInput(f"the assumption profile {quoted(name)} is blank: give {known} or a profile file")
        raise UnreadableInput(f"no assumption profile {quoted(name)}: not a shipped profile ({known}) and no such file")
    text = read_text(path, "assumption profile", MAX_PROFILE_BYTES)
    data = load_json(text, f"assumption profile {origin}", bad="not JSON")
    try:
        return parse_profile(data, origin)
    except ProfileProblems as error:
        raise InvalidProfile(origin, error.problems) from None


def shipped_cards() -> list[MeikyuCard]:
    """The Meikyu cards of the shipped catalog (rulebook facts only)."""
    return game_cards("meikyu")


def shipped_pool(profile: str = "default") -> CardPool:
    """The pool of the shipped catalog completed by a profile (for tests and benchmarks)."""
    resolution: Resolution = resolve_pool(shipped_cards(), load_profile(profile))
    if resolution.pool is None:
        raise InvalidProfile(profile, [*resolution.missing, *resolution.problems])
    return resolution.pool
