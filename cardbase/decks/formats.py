"""Deck formats by name: each game's standard formats plus house formats from a TOML file.

A house format file::

    [formats.highlander]
    game = "mea"
    description = "One of each card"
    base = "standard"          # start from a standard format (optional)
    copy_limit = 1
    banned = ["Dragon of Mild Inconvenience"]

Keys are the fields of ``cardbase.games.formats.Format``; a bad file is refused with a
message naming the file, the format and the key, and so is a card the catalog does not have
(with the closest names) or a name holding a line break.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from cardbase.errors import InvalidData, UnreadableInput, UsageError, quoted
from cardbase.games.formats import Format
from cardbase.names import fold
from cardbase.textfiles import load_toml, read_text

_INT_KEYS = ("min_cards", "max_cards", "copy_limit")
_LIST_KEYS = ("allowed_sets", "allowed_types", "allowed_cards", "banned", "restricted")
_MAP_KEYS = ("composition", "sections", "copy_limits")
_KEYS = ("game", "description", "base", "catalog_copies", *_INT_KEYS, *_LIST_KEYS, *_MAP_KEYS)

HouseFormats = dict[tuple[str, str], Format]
"""House formats as loaded from a file, by (game, name)."""


def standard_formats(game: str) -> dict[str, Format]:
    """The formats a game ships with, by name."""
    if game == "mea":
        from cardbase.games.mea.formats import FORMATS
    elif game == "meikyu":
        from cardbase.games.meikyu.formats import FORMATS
    else:
        from cardbase.games.meio.formats import FORMATS
    return dict(FORMATS)


def default_format(game: str, players: int | None = None, split: bool = False) -> str:
    """The format a deck of ``game`` is checked against when it names none."""
    if game == "meio":
        from cardbase.games.meio.formats import format_for

        return format_for(players, split)
    return "standard"


MAX_FORMAT_NUMBER = 100_000
"""Card counts in a format (sizes, copy limits): a deck holds at most a few hundred cards."""
MAX_FORMATS_BYTES = 1_000_000
"""A house formats file is a few kilobytes; a megabyte is refused with this bound named."""


CARD_KEYS = ("allowed_cards", "banned", "restricted", "copy_limits")
"""The keys whose names are cards' (the others name sets, types and sections)."""

CardCheck = Callable[[str, str], str | None]
"""Given a game and a card name as written: what is wrong with it (not in the catalog), or None."""


def load_house_formats(path: Path, check_card: CardCheck | None = None) -> dict[tuple[str, str], Format]:
    """House formats from a TOML file, by (game, name); every error names the file and key. With
    ``check_card``, a card it finds wrong (one the catalog does not have: the rule would never
    apply) is ``InvalidData`` (exit 1) listing every such card with its format and key."""
    text = read_text(path, "formats file", MAX_FORMATS_BYTES)
    data = load_toml(text, str(path))
    formats = data.get("formats")
    if not isinstance(formats, dict) or not formats:
        raise UnreadableInput(f"{path}: no [formats.NAME] tables")
    out: dict[tuple[str, str], Format] = {}
    problems: list[str] = []
    for name, spec in formats.items():
        where = f"{path}: format {quoted(name)}"
        if len(name) > MAX_FORMAT_NAME:
            raise UnreadableInput(f"{where}: a format name has at most {MAX_FORMAT_NAME} characters, not {len(name):,}")
        if not isinstance(spec, dict):
            raise UnreadableInput(f"{where}: must be a table of keys")
        house = _house_format(name, spec, where)
        out[(house.game, name)] = house
        for key in CARD_KEYS:
            for card in spec.get(key, ()):
                problem = check_card(house.game, card) if check_card else None
                if problem:
                    problems.append(f"format {name!r}: {key}: {problem}")
    if problems:
        raise InvalidData(str(path), problems, writes=False)
    return out


def _check_names(where: str, key: str, names: Iterable[str]) -> None:
    """Names in a format are one line of printable text each: a line break or a control character
    (a copy-paste slip) would make a name no card has."""
    for name in names:
        if not name.strip():
            raise UnreadableInput(f"{where}: key {quoted(key)}: an empty name")
        bad = next((c for c in name if not c.isprintable()), None)
        if bad is not None:
            raise UnreadableInput(
                f"{where}: key {quoted(key)}: the name {quoted(name)} holds a control character ({bad!r}): "
                "one name per string, on one line"
            )


def _house_format(name: str, spec: dict[str, Any], where: str) -> Format:
    unknown = sorted(set(spec) - set(_KEYS))
    if unknown:
        raise UnreadableInput(f"{where}: unknown key {quoted(unknown[0])} (keys are {', '.join(_KEYS)})")
    game = spec.get("game")
    if not isinstance(game, str) or game not in ("mea", "meio", "meikyu"):
        raise UnreadableInput(f"{where}: key 'game' must be mea, meio or meikyu, not {quoted(game)}")
    base_name = spec.get("base")
    if base_name is not None and not isinstance(base_name, str):
        raise UnreadableInput(f"{where}: key 'base' must be the name of a standard format, not {quoted(base_name)}")
    if not isinstance(spec.get("description", ""), str):
        raise UnreadableInput(f"{where}: key 'description' must be text")
    if base_name is not None:
        bases = standard_formats(game)
        if base_name not in bases:
            raise UnreadableInput(
                f"{where}: key 'base': {game} has no standard format {quoted(base_name)} ({', '.join(bases)})"
            )
        fields = dataclasses.asdict(bases[base_name])
    else:
        fields = {"game": game}
    fields.update(name=name, standard=False, description=spec.get("description", fields.get("description", "")))
    for key in _INT_KEYS:
        if key in spec:
            value = spec[key]
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_FORMAT_NUMBER:
                raise UnreadableInput(
                    f"{where}: key {quoted(key)} must be a whole number from 0 to {MAX_FORMAT_NUMBER:,}, "
                    f"not {quoted(value)}"
                )
            fields[key] = value
    if "catalog_copies" in spec:
        if not isinstance(spec["catalog_copies"], bool):
            raise UnreadableInput(f"{where}: key 'catalog_copies' must be true or false")
        fields["catalog_copies"] = spec["catalog_copies"]
    for key in _LIST_KEYS:
        if key in spec:
            value = spec[key]
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise UnreadableInput(f"{where}: key {quoted(key)} must be a list of names")
            _check_names(where, key, value)
            fields[key] = frozenset(fold(v) for v in value)
    for key in _MAP_KEYS:
        if key in spec:
            value = spec[key]
            if not isinstance(value, dict) or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_FORMAT_NUMBER for v in value.values()
            ):
                raise UnreadableInput(f"{where}: key {quoted(key)} must be a table of name = whole number")
            _check_names(where, key, value)
            fields[key] = {fold(k): v for k, v in value.items()}
    low, high = fields.get("min_cards"), fields.get("max_cards")
    if low is not None and high is not None and low > high:
        raise UnreadableInput(f"{where}: min_cards {low} is more than max_cards {high}")
    return Format(**fields)


def find_format(game: str, name: str, house: dict[tuple[str, str], Format] | None = None) -> Format | None:
    """The format ``name`` of ``game``: a house format first, then a standard one."""
    if house and (game, name) in house:
        return house[(game, name)]
    return standard_formats(game).get(name)


MAX_FORMAT_NAME = 100
"""The longest format name read (``--format``, a deck's ``format:``, the web's format fields)."""


def check_format_name(name: str, option: str = "--format") -> str:
    """``name`` within the bound, or a usage error naming ``option``."""
    if len(name) > MAX_FORMAT_NAME:
        raise UsageError(f"{option} has at most {MAX_FORMAT_NAME} characters, not {len(name)}")
    return name


def format_names(game: str, house: dict[tuple[str, str], Format] | None = None) -> list[str]:
    names = list(standard_formats(game))
    names += [n for (g, n) in (house or {}) if g == game and n not in names]
    return names


def formats_hint(game: str, house: dict[tuple[str, str], Format] | None = None, *, for_players: bool = False) -> str:
    """The formats a name may be, for a message about one that is none of them (``for_players``: on
    a page, whose server was started with the house formats or not: no option to name)."""
    known = f"formats are {', '.join(format_names(game, house))}"
    if house:
        return known
    if for_players:
        return f"{known}; a house format is known only when the server is started with its formats file"
    return f"{known}; a house format is known only with its --formats file"


def require_format(game: str, name: str, house: dict[tuple[str, str], Format] | None = None) -> Format:
    """Like ``find_format`` but a miss is a usage error listing the formats."""
    found = find_format(game, name, house)
    if found is None:
        from cardbase.catalog.fields import GAME_NAMES

        refused = UsageError(f"{game} has no format {quoted(name)}; {formats_hint(game, house)}").refusing(name)
        said = (
            f"{GAME_NAMES.get(game, game)} has no format {quoted(name)}; {formats_hint(game, house, for_players=True)}"
        )
        raise refused.saying(said)
    return found
