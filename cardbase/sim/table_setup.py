"""What a new table needs, from what a person chooses: the game, the players, each seat (a person
or an agent), the Méa decks (a database deck, a shipped example, or a pasted list: each checked
first), the Meikyu assumption profile, the rules options (``--rule`` readings) and the seed.

Every choice is checked where it enters, with one message naming it; the faces (the web's
``/play``, the API) only gather the choices.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardbase.errors import UsageError, counted, plural, prefixed, quoted
from cardbase.games.base import Rules
from cardbase.sim.registry import MAX_RULE_TEXT
from cardbase.sim.table import HUMAN

if TYPE_CHECKING:
    from cardbase.db.engine import Database

PLAYER_COUNTS: dict[str, tuple[int, ...]] = {"mea": (2,), "meio": (2, 3, 4), "meikyu": (2, 3, 4, 5)}
DEFAULT_PLAYERS = {"mea": 2, "meio": 3, "meikyu": 3}
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "decks"
"""The shipped example decks (a source checkout); only their names are ever taken from a request."""
BROKEN_EXAMPLES = frozenset({"mea-broken.txt"})
"""Shipped examples broken on purpose (what ``deck validate`` reports of a refused deck): never offered to play."""


@dataclass(frozen=True)
class DeckChoice:
    """One Méa deck: a database deck's ``deck_id``, a shipped ``example`` (its file name), or a pasted ``text``."""

    deck_id: int | None = None
    example: str | None = None
    text: str | None = None


@dataclass
class TableChoice:
    """The choices of a new table, as a person makes them."""

    game: str
    seats: list[str]
    decks: list[DeckChoice] = field(default_factory=list)
    rules: dict[str, Any] = field(default_factory=dict)
    assume: str | None = None
    seed: int | None = None


@dataclass
class TableSetup:
    """The rules a table plays, and what its pages show beside the game."""

    rules: Rules
    seats: list[str]
    seed: int | None
    labels: dict[str, Any]


def example_decks(game_id: str = "mea") -> list[str]:
    """The shipped example decks of a game to play (file names), if this is a source checkout: the
    play and lab forms offer these (not :data:`BROKEN_EXAMPLES`)."""
    if not EXAMPLES.is_dir():
        return []
    found = EXAMPLES.glob(f"{game_id}-*.txt")
    return sorted(p.name for p in found if p.is_file() and p.name not in BROKEN_EXAMPLES)


def example_label(file: str) -> str:
    """An example deck as a player reads its name: ``mea-tile-control.txt`` → ``Tile Control``."""
    return file.removeprefix("mea-").removesuffix(".txt").replace("-", " ").title()


def rule_fields(game_id: str) -> list[dict[str, Any]]:
    """The rules options a table offers (those of ``--rule``): name, its words (``label``: as refusals
    say it), kind (``choice`` for one of a few words, then ``choices`` lists them), default, and a note
    (what a bare 0 means, the names a text option takes, as Méa's layouts; or "")."""
    from cardbase.games.base import option_words
    from cardbase.sim.registry import game

    kinds = {str: "text", int: "number", bool: "yes/no"}
    entry = game(game_id)
    choices = entry.rules_class().option_choices
    notes = entry.rules_class().option_notes
    out: list[dict[str, Any]] = []
    for name, (kind, default) in entry.rule_defaults().items():
        if name in choices:
            out.append({"name": name, "kind": "choice", "default": default, "choices": list(choices[name])})
        else:
            out.append({"name": name, "kind": kinds[kind], "default": default})
        named = entry.rules_class().option_names.get(name, ())
        out[-1]["label"] = option_words(name)
        out[-1]["note"] = notes.get(name) or (f"{', '.join(named)}, …" if named else "")  # a layout's names
    return out


def assume_profiles() -> list[str]:
    """The shipped Meikyu assumption profiles (``--assume``)."""
    from cardbase.catalog.meikyu_profiles import SHIPPED_PROFILES

    return list(SHIPPED_PROFILES)


def _rule_texts(game_id: str, options: Mapping[str, Any]) -> list[str]:
    """Options as ``--rule NAME=VALUE`` texts (a value left as its default is left out). Every name
    must be one of the game's options, even with an empty value (the form's 'the default'): an
    unknown one is refused, quoted and cut, not dropped unseen nor read up to an ``=`` inside it."""
    from cardbase.sim.registry import game

    entry = game(game_id)
    defaults = entry.rule_defaults()
    texts = []
    for name, value in options.items():
        if name not in defaults:
            known = ", ".join(sorted(defaults)) or "none"
            raise UsageError(f"rules option {quoted(name)}: not a {entry.title} rules option (known: {known})")
        if value is None or value == "":
            continue
        text = ("true" if value else "false") if isinstance(value, bool) else str(value).strip()  # as JSON wrote it
        if len(name) + 1 + len(text) > MAX_RULE_TEXT:  # as long as --rule NAME=VALUE takes it
            refused = UsageError(f"rules option {name}: at most {MAX_RULE_TEXT:,} characters with its name")
            room = MAX_RULE_TEXT - len(name) - 1
            raise refused.taking(name, text, reason=f"is over {room:,} {plural(room, 'character')} long")
        kind, default = defaults.get(name, (str, None))
        if kind is not bool and text == str(default):
            continue
        texts.append(f"{name}={text}")
    return texts


def load_choice(database: Database, choice: DeckChoice, which: str, house: Any) -> Any:
    """The Méa deck of ``choice`` read, resolved and checked, ready to play (``sim.mea.LoadedDeck``);
    ``which`` names it in messages (a table's seat, the lab's field)."""
    from cardbase.decks.service import read_deck_data, resolve_stored, resolve_text
    from cardbase.sim.mea import load_resolved
    from cardbase.textfiles import read_text

    if choice.deck_id is not None:
        from cardbase.decks.store import UnknownDeck

        try:
            resolved = resolve_stored(database, choice.deck_id)
        except UnknownDeck as error:
            said = error.args[0] if error.args and isinstance(error.args[0], str) else str(error)  # maybe a Said
            raise UnknownDeck(prefixed(f"{which}: ", said)).refusing(choice.deck_id) from None
        source = stored_source(which, choice.deck_id)
    elif choice.example is not None:
        if choice.example not in example_decks("mea"):
            known = ", ".join(example_decks("mea")) or "none here"
            if choice.example in BROKEN_EXAMPLES:
                said = f"{choice.example} is broken on purpose (it shows a refused deck), not an example to play"
                raise UsageError(f"{which}: {said} (known: {known})")
            raise UsageError(f"{which}: no example deck {quoted(choice.example)} (known: {known})")
        path = EXAMPLES / choice.example
        resolved = resolve_text(database, read_deck_data(read_text(path, "deck list"), str(path)), "mea")
        source = f"{which}: examples/decks/{choice.example}"
    elif choice.text is not None and choice.text.strip():
        resolved = resolve_text(database, read_deck_data(choice.text, which), "mea")
        source = f"{which} (pasted)"
    else:
        raise UsageError(f"{which}: choose a deck (a database deck, an example, or a pasted list)")
    return load_resolved(database, resolved, source, house=house, drop_hint=TABLE_DROP_HINT)


TABLE_DROP_HINT = "remove it from the deck to leave it out"
"""How a table's deck leaves out a card of unknown stats (a table has no --drop-unknown)."""


def stored_source(which: str, deck_id: int) -> str:
    """A database deck as a table's messages name it."""
    return f"{which}: database deck {deck_id}"


def deck_problems(database: Database, choice: DeckChoice, house: Any = None) -> list[str]:
    """Why a table would refuse this Méa deck (its problems, as the start would list them); none:
    it plays. The start form offers the playable decks first and marks the others."""
    return _problems(lambda: load_choice(database, choice, "the deck", house))


def stored_deck_problems(database: Database, deck_ids: Sequence[int], house: Any = None) -> dict[int, list[str]]:
    """:func:`deck_problems` of many database decks (by id), read together: their entries, their cards'
    index entries and rows in a few queries in all, not a few a deck (the play form and the lab list
    up to 50 decks a page view)."""
    from sqlmodel import col, select

    from cardbase.db.models import Card
    from cardbase.decks.catalog import load_cards
    from cardbase.decks.service import resolve_known
    from cardbase.decks.store import load_decks
    from cardbase.sim.mea import load_resolved

    decks = load_decks(database, deck_ids)
    ids = {c.card_id for deck in decks.values() for c in deck.cards}
    with database.read() as conn:
        known = load_cards(conn, ids)
    with database.session() as session:
        rows = {row.id: row for row in session.scalars(select(Card).where(col(Card.id).in_(ids)))}

    def load(deck_id: int) -> Any:
        resolved = resolve_known(database, decks[deck_id], known)[0]
        source = stored_source("the deck", deck_id)
        return load_resolved(database, resolved, source, house=house, drop_hint=TABLE_DROP_HINT, rows=rows)

    return {
        deck_id: _problems(partial(load, deck_id))
        if deck_id in decks
        else deck_problems(database, DeckChoice(deck_id=deck_id), house)  # gone meanwhile: said as for one
        for deck_id in deck_ids
    }


def _problems(load: Callable[[], Any]) -> list[str]:
    """The problems that make ``load`` refuse a deck (none: it loads). A database busy or unusable
    meanwhile is raised: the database's answer (503), not a problem of the deck."""
    from cardbase.errors import CardbaseError, DatabaseError, InvalidData

    try:
        load()
    except DatabaseError:
        raise
    except InvalidData as error:
        return list(error.problems) or [str(error).splitlines()[0]]
    except CardbaseError as error:
        return [str(error).splitlines()[0]]
    return []


def check_game(game_id: str) -> str:
    """``game_id`` if it is a game of the tables, else a :class:`UsageError` naming the known ones."""
    if game_id not in PLAYER_COUNTS:
        raise UsageError(f"no game {game_id[:40]!r} (known: {', '.join(PLAYER_COUNTS)})").refusing(game_id)
    return game_id


def setup(database: Database, choice: TableChoice, house: Any = None) -> TableSetup:
    """Check ``choice`` and make its rules; the first problem is a :class:`UsageError` naming it
    (an invalid Méa deck: :class:`~cardbase.errors.InvalidData` with every problem)."""
    from cardbase.sim.registry import game

    entry = game(check_game(choice.game))
    counts = PLAYER_COUNTS[choice.game]
    players = len(choice.seats)
    if players not in counts:
        span = counted(counts[0], "player") if len(counts) == 1 else f"{counts[0]} to {counts[-1]} players"
        raise UsageError(f"{entry.title} is for {span}, not {players}")
    if choice.decks and choice.game != "mea":  # given, never dropped unseen: the table would not be the one asked for
        raise UsageError(f"decks: {entry.title} plays without decks (a table's decks are Méa's)")
    if choice.assume is not None and choice.game != "meikyu":
        said = f"an assumption profile (assume) is for Meikyu Kingdom only, not {entry.title}"
        raise UsageError(said).refusing(choice.assume)
    for seat in choice.seats:
        if seat != HUMAN:
            entry.parse_agent(seat)  # its name and its options, as the command line checks them
    chosen = entry.rule_options(_rule_texts(choice.game, choice.rules), "rules option")
    for name, value in chosen.items():
        entry.check_option(name, value)
    options: dict[str, Any] = {"players": players, **chosen}
    labels: dict[str, Any] = {}
    if choice.game == "mea":
        if len(choice.decks) != 2:
            raise UsageError(f"Méa needs two decks, one per seat, not {len(choice.decks)}")
        loaded = [load_choice(database, d, f"P{k + 1}'s deck", house) for k, d in enumerate(choice.decks)]
        options["decks"] = [d.deck for d in loaded]
        labels["decks"] = [d.label for d in loaded]
        labels["notes"] = [note for d in loaded for note in d.notes]
        # where each deck came from, as the start form names it (a finished table's "new game" offers
        # them again; a pasted list is not kept): never shown to a seat (public_labels leaves it out)
        labels["deck_sources"] = [
            f"db:{d.deck_id}" if d.deck_id is not None else f"example:{d.example}" if d.example else None
            for d in choice.decks
        ]
        from cardbase.sim.mea import make_rules

        del options["players"]
        decks = options.pop("decks")
        rules: Rules = make_rules(decks, options)
        # The notes every seat reads name no card; a seat's own deck's bare-stats cards are its own.
        labels["demo"] = rules.demo_note()  # type: ignore[attr-defined]
        labels["bare"] = [list(d.unexpressed) for d in decks]
    elif choice.game == "meikyu":
        from cardbase.sim.meikyu import catalog_cards, resolve

        if choice.assume is not None and choice.assume not in assume_profiles():
            raise UsageError(
                f"no assumption profile {choice.assume!r} at the server (known: {', '.join(assume_profiles())})"
            ).refusing(choice.assume)
        pool = resolve(catalog_cards(database), choice.assume)
        options["pool"] = pool
        rules = entry.make_rules(options)
        labels["assumed"] = list(pool.assumed)
        labels["profile"] = pool.profile
    else:
        rules = entry.make_rules(options)
    from cardbase.sim.wording import rules_in_words

    labels["rules"] = rules_in_words(choice.game, rules.to_options()) if choice.game != "mea" else ""
    return TableSetup(rules, list(choice.seats), choice.seed, labels)


def seats_from(game_id: str, players: int | None, agents: Sequence[str]) -> list[str]:
    """The seats of a table: ``agents`` (one per seat), or the first seat a person and the rest
    the heuristic agent when none are given."""
    if agents:
        return [a.strip() or HUMAN for a in agents]
    n = players or DEFAULT_PLAYERS[check_game(game_id)]
    return [HUMAN] + ["heuristic"] * (n - 1)
