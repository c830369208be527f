"""Each game's card fields, described once and used by import, export, search and status."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cardbase.names import fold


@dataclass(frozen=True, slots=True)
class Field:
    """A card field: its column name, its value kind and the other names users write for it."""

    name: str
    kind: type[int] | type[str] | type[list[str]]
    synonyms: tuple[str, ...] = ()
    label: str = ""

    @property
    def heading(self) -> str:
        return self.label or self.name.replace("_", " ")


NAME = Field("name", str, ("card", "card name", "title"))
TYPE = Field("type", str, ("kind", "card type"))
SET = Field("set", str, ("set code", "edition"))
TEXT = Field("text", str, ("rules text", "effect", "oracle"))
# Méa abilities as data (a list of sentences; JSON text in a spreadsheet cell).
ABILITIES = Field("abilities", list, ("abilities json", "ability data"))
COPIES = Field("copies", int, ("count", "qty", "quantity", "number"))
ALIASES = Field("aliases", str, ("alias", "aka", "also known as"))
NOTES = Field("notes", str, ("note", "comment", "comments"))
TAGS = Field("tags", str, ("tag", "labels", "categories"))
"""Tags on the card (``removal; draw``), separated by ``;`` or ``,`` in a cell."""
# Columns an export writes that an import reads past: they are derived, not values.
READ_ONLY_COLUMNS = ("id", "short_id", "source", "game", "unknown")

# Per game, the fields in the order files and tables show them.
GAME_FIELDS: dict[str, tuple[Field, ...]] = {
    "mea": (
        NAME,
        TYPE,
        Field("cost", int, ("mana", "mana cost", "mana_cost", "cst")),
        Field("attack", int, ("atk", "att", "power"), "atk"),
        Field("defence", int, ("def", "defense", "dfn", "toughness"), "def"),
        TEXT,
        ABILITIES,
        Field("description", str, ("desc", "flavour", "flavor", "flavour text", "flavor text")),
        SET,
        COPIES,
        ALIASES,
        TAGS,
        NOTES,
    ),
    "meikyu": (
        NAME,
        Field("land_name", str, ("land", "land name", "owned name")),
        TYPE,
        Field("level", int, ("quest level", "quest_level", "lvl", "lv"), "level"),
        Field("points", int, ("pts", "point", "vp")),
        Field("developed_points", int, ("developed", "dev", "dev points", "developed point"), "dev pts"),
        Field("bravery", int, ("swords", "sword", "brv", "brave")),
        Field("wits", int, ("seals", "seal", "wit")),
        TEXT,
        COPIES,
        SET,
        ALIASES,
        TAGS,
        NOTES,
    ),
    "meio": (
        NAME,
        TYPE,
        Field("rank", int, ()),
        Field("suit", str, ()),
        Field("min_players", int, ("players",)),
        SET,
        ALIASES,
        TAGS,
        NOTES,
    ),
}

# Card types per game, with the other words users write for them.
GAME_TYPES: dict[str, dict[str, tuple[str, ...]]] = {
    "mea": {"monster": ("monsters", "creature"), "assist": ("assists", "spell"), "tile": ("tiles",)},
    "meikyu": {
        "land": ("meikyu", "meikyu card", "room", "lands", "dungeon"),
        "character": ("characters", "char"),
        "item": ("items",),
        "aggression": ("gotcha", "aggression card"),
        "open": ("open card", "open cards"),
    },
    "meio": {"playing card": ("card", "playing")},
}

# Per game and card type, the values a card of that type has (so an assist's missing
# attack is "not applicable", while a character's missing bravery is "unknown").
APPLICABLE: dict[tuple[str, str], tuple[str, ...]] = {
    ("mea", "monster"): ("cost", "attack", "defence"),
    ("mea", "assist"): ("cost",),
    ("mea", "tile"): ("copies",),
    ("meikyu", "land"): ("land_name", "level", "points", "developed_points", "text"),
    ("meikyu", "character"): ("bravery", "wits", "copies"),
    ("meikyu", "item"): ("text", "copies"),
    ("meikyu", "aggression"): ("text", "copies"),
    ("meikyu", "open"): ("text", "copies"),
    ("meio", "playing card"): ("rank", "suit", "min_players"),
}

DEFAULT_SET: dict[str, str] = {"mea": "core", "meikyu": "core", "meio": "standard"}

# Every stat column the card table has, across games.
STAT_COLUMNS: tuple[str, ...] = (
    "cost",
    "attack",
    "defence",
    "land_name",
    "level",
    "points",
    "developed_points",
    "bravery",
    "wits",
    "rank",
    "suit",
    "min_players",
    "copies",
    "description",
)


def field_for_header(game: str, header: str) -> Field | None:
    """The field a spreadsheet column heading names, by name or synonym, case-insensitively."""
    key = fold(header).replace("-", " ").replace("_", " ")
    for f in GAME_FIELDS[game]:
        names = (f.name, *f.synonyms)
        if key in {n.replace("_", " ") for n in names}:
            return f
    return None


def canonical_type(game: str, word: str) -> str | None:
    """The card type ``word`` names in ``game`` (by name or synonym), or None."""
    key = fold(word)
    for name, synonyms in GAME_TYPES[game].items():
        if key == name or key in synonyms:
            return name
    return None


def unknown_fields(game: str, type_: str, values: dict[str, object]) -> tuple[str, ...]:
    """The applicable fields of a card whose value is unknown (None)."""
    return tuple(f for f in APPLICABLE.get((game, type_), ()) if values.get(f) is None)


NOT_APPLICABLE = "—"
"""How a field that does not apply to a card's type shows (an assist's attack); ``?`` is unknown."""


def value_text(game: str, type_: str, field: str, value: object) -> str:
    """A card value as shown: the value, ``?`` when it exists but is unknown, ``—`` when the
    field does not apply to the card's type (and so is never in ``unknown``)."""
    if value is not None:
        return str(value)
    return "?" if field in APPLICABLE.get((game, type_), ()) else NOT_APPLICABLE


SOURCE_USER = "user"
"""The source of a card added or edited in cardbase (``catalog add``/``edit``, the web's editor)."""


def source_label(source: str) -> str:
    """How a card's source is said wherever it shows (a face's footer, tables, the card page)."""
    from cardbase.games.base import SOURCE_DEMO, SOURCE_FILE_PREFIX, SOURCE_RULEBOOK

    if source == SOURCE_DEMO:
        return "DEMO, not a published card"
    if source == SOURCE_RULEBOOK:
        return "from the rulebook"
    if source == SOURCE_USER:
        return "entered in cardbase"
    if source.startswith(SOURCE_FILE_PREFIX):
        return f"imported from {source[len(SOURCE_FILE_PREFIX) :]}"
    return source


def unknown_reason(source: str) -> tuple[str, str]:
    """Why a card's values are unknown, by its source, and what gives them: (reason, remedy key).
    The remedy key is ``import`` (bring real values from a file) or ``edit`` (the card was entered in
    cardbase, so its values are the user's to type)."""
    from cardbase.games.base import SOURCE_FILE_PREFIX, SOURCE_RULEBOOK

    if source == SOURCE_RULEBOOK:
        return "the rulebook does not give them", "import"
    if source == SOURCE_USER:
        return "not entered yet", "edit"
    if source.startswith(SOURCE_FILE_PREFIX):
        return f"left empty in {source[len(SOURCE_FILE_PREFIX) :]}", "import"
    return "its source does not give them", "import"


GAME_NAMES: dict[str, str] = {"mea": "Méa", "meio": "Meio", "meikyu": "Meikyu"}
"""Each game's name as players read it, by its id (``Méa`` for ``mea``), in the order pages list the
games: the one map of messages (``a Meikyu character has no level``), of the web's pages
(``web.pages.GAME_TITLES``) and of a deck problem's players' words (``decks.model.game_title``)."""


def typed_fields(game: str) -> frozenset[str]:
    """The fields of ``game`` that some of its card types have and others do not (a land's level,
    a character's bravery): a value in one of them is refused on a type without it."""
    return frozenset(f for (g, _), fields in APPLICABLE.items() if g == game for f in fields)


def inapplicable_fields(game: str, type_: str) -> frozenset[str]:
    """The fields some card types of ``game`` have and ``type_`` does not (an assist's attack, a Meikyu
    character's level): not applicable, so never unknown — shown ``—``, or left out of a record."""
    applies = APPLICABLE.get((game, type_))
    return frozenset() if applies is None else typed_fields(game) - set(applies)


def inapplicable_values(game: str, type_: str, values: Mapping[str, object]) -> tuple[str, ...]:
    """The fields of ``values`` holding a value that a card of ``type_`` does not have (a Meikyu
    character's level), in the game's field order: "not applicable" is no value, not an unknown one."""
    applies = APPLICABLE.get((game, type_))
    if applies is None:
        return ()
    typed = typed_fields(game)
    return tuple(
        f.name
        for f in GAME_FIELDS[game]
        if f.name in typed and f.name not in applies and values.get(f.name) is not None
    )


def inapplicable_problem(
    game: str, type_: str, field: str, column: str | None = None, stored: object = None, card: str | None = None
) -> str:
    """The one message for a value in a field that ``type_`` does not have, as import, edit and the
    API give it: ``column 'level': a Meikyu character has no level; leave it empty``. ``stored``: the
    value the card already holds (its type changes), which must be cleared with the change. ``card``:
    the card's id, when the value is stored and the writer (an import, whose empty cell keeps a stored
    value) cannot clear it: the message names the command that does."""
    from cardbase.errors import quoted

    article = "an" if type_[:1] in "aeiou" else "a"
    said = f"{article} {GAME_NAMES[game]} {type_} has no {field.replace('_', ' ')}"
    if stored is not None and card is not None:
        from cardbase.errors import Said

        held = f"column {quoted(column or field)}: {said}, and the card holds {quoted(str(stored))}"
        return Said(
            f"{held}; an empty cell keeps it; clear it with `cardbase catalog edit {card} {field}=` (or on the "
            "card's Edit page), then import again",
            f"{held}; an empty cell keeps it; clear it on the card's Edit page, then import again",
        )
    if stored is not None:
        return f"column {quoted(column or field)}: {said}, and the card holds {quoted(str(stored))}; clear it first"
    return f"column {quoted(column or field)}: {said}; leave it empty"
