"""The lab for one saved deck, as the web's page and its API run it: the deck against a chosen field
(the other Méa decks of the database and the shipped examples), then its opening size, by the same
studies as ``cardbase lab gauntlet`` and ``lab opening`` (:mod:`cardbase.lab.gauntlet`,
:mod:`cardbase.lab.opening`) under the same default rules and agents.

The work is bounded twice: a number of games per match-up (:data:`MAX_GAMES`) and a time budget
(``seconds``): a run past it stops between chunks of games with :class:`OverBudget`, never a hang.
The games may be played elsewhere (a ``backend``: the server's lab worker process); the budget and
the stop are checked here, as each chunk comes back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardbase.errors import CardbaseError, UsageError, counted, quoted

if TYPE_CHECKING:
    from cardbase.db.engine import Database
    from cardbase.lab.gauntlet import Gauntlet
    from cardbase.lab.opening import OpeningStudy
    from cardbase.sim.runner import ChunkMapper
    from cardbase.sim.table_setup import DeckChoice

AGENTS = ("heuristic", "heuristic")
"""The agents of the deck and of the field: the commands' default (``--agents heuristic``)."""
DEFAULT_GAMES = 40
"""Games per match-up and per opening size: the two studies answer in a few seconds."""
MAX_GAMES = 1_000
"""Games per match-up and per opening size a web run may ask for (the command line's bound is 100,000)."""
MAX_FIELD = 8
"""Field decks of one run."""
RUN_SECONDS = 30.0
"""A run's time budget: past it the run stops and says how far it got."""
FIELD_DECKS_LISTED = 50
"""The database's other Méa decks offered as the field (the first, by name)."""

NOTHING_YET = {
    "meio": "The lab's Meio study (at the command line: lab split) plays out the 7 + 6 splits of one dealt hand "
    "of 13 cards; a saved Meio deck is not a hand, so the lab has nothing to run for it yet. The deck's sample "
    "hand deals one and shows the heuristic agent's split.",
    "meikyu": "The lab's Meikyu Kingdom study (at the command line: lab cards) judges every card of the catalog "
    "over whole games, not one deck, so the lab has nothing to run for a saved Meikyu deck yet.",
}
"""Why the lab has nothing for a game's saved deck (every game but Méa)."""


class OverBudget(CardbaseError):
    """A lab run that did not finish within its time budget, or found every lab slot busy (503)."""

    exit_code = 2


@dataclass(frozen=True)
class FieldChoice:
    """A deck the field may hold: ``key`` as a form or a query gives it (``deck:ID``, ``example:FILE``)."""

    key: str
    label: str
    example: bool
    problems: tuple[str, ...] = ()
    """Why a table would refuse the deck (as the play form says it); none: it plays."""


@dataclass
class LabRun:
    """A finished run: the gauntlet, the opening study, and what they were asked."""

    gauntlet: Gauntlet
    opening: OpeningStudy
    games: int
    seed: int
    vs: str
    """The opening study's opponent (its label)."""
    vs_key: str
    """... as chosen (``deck:ID``, ``example:FILE``)."""
    field_args: tuple[str, ...]
    """Each deck played against as the terminal names it (``db:NAME``, ``examples/decks/FILE``)."""
    vs_arg: str
    """... and the opening study's opponent."""
    notes: list[str]
    """The run's notes (demo cards, rules readings, cards left out), each once, each deck named once."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "mea",
            "games": self.games,
            "seed": self.seed,
            "gauntlet": self.gauntlet.to_dict(),
            "opening": {**self.opening.to_dict(), "verdict": self.opening.verdict("more games")},
            "notes": self.notes,
        }


def field_choices(database: Database, deck_id: int) -> tuple[list[FieldChoice], int]:
    """The decks the field may hold: the database's other Méa decks (by name, at most
    :data:`FIELD_DECKS_LISTED`), then the shipped examples (those the play form offers); and how many
    other Méa decks are not listed (the page says so: they are not left out unseen)."""
    from cardbase.decks.store import list_decks
    from cardbase.sim.table_setup import DeckChoice, deck_problems, example_decks, example_label, stored_deck_problems

    others = [d for d in list_decks(database) if d["game"] == "mea" and d["id"] != deck_id]
    listed = others[:FIELD_DECKS_LISTED]
    problems = stored_deck_problems(database, [d["id"] for d in listed])
    own = [FieldChoice(f"deck:{d['id']}", str(d["name"]), False, tuple(problems[d["id"]])) for d in listed]
    shipped = [
        FieldChoice(
            f"example:{name}",
            f"{example_label(name)} (example)",
            True,
            tuple(deck_problems(database, DeckChoice(example=name))),
        )
        for name in example_decks("mea")
    ]
    # the decks that play first; the others after them, marked with why (the lab would refuse them)
    ordered = [c for c in own + shipped if not c.problems] + [c for c in own + shipped if c.problems]
    return ordered, max(0, len(others) - FIELD_DECKS_LISTED)


def default_field(choices: Sequence[FieldChoice]) -> list[str]:
    """The field a first visit offers: the shipped examples that play (decks of players' own are chosen by them)."""
    return [c.key for c in choices if c.example and not c.problems] or [c.key for c in choices[:1] if not c.problems]


def deck_choice(key: str, what: str) -> DeckChoice:
    """``deck:ID`` or ``example:FILE`` as a :class:`~cardbase.sim.table_setup.DeckChoice`, else a usage
    error naming ``what`` and the text."""
    from cardbase.sim.table_setup import DeckChoice

    kind, _, value = key.partition(":")
    if kind == "deck" and value.isascii() and value.isdecimal() and len(value) <= 10:
        return DeckChoice(deck_id=int(value))
    if kind == "example" and value:
        return DeckChoice(example=value)
    raise UsageError(f"{what} {quoted(key)}: choose one of the decks listed (deck:ID or example:FILE)")


def check_game(database: Database, deck_id: int) -> str:
    """The deck's game, if the lab runs for it; else a usage error saying why it has nothing yet."""
    from cardbase.decks.store import deck_by_id

    game = deck_by_id(database, deck_id).game
    if game != "mea":
        raise UsageError(NOTHING_YET[game])
    return game


def run_lab(
    database: Database,
    deck_id: int,
    field: Sequence[str],
    vs: str | None,
    games: int = DEFAULT_GAMES,
    seed: int = 0,
    house: Any = None,
    seconds: float | None = None,
    stopping: Callable[[], bool] | None = None,
    backend: ChunkMapper | None = None,
) -> LabRun:
    """The saved Méa deck ``deck_id`` against each deck of ``field`` on both seats (``lab gauntlet``),
    then its opening size against ``vs`` (default: the first of ``field``; ``lab opening``), ``games``
    games per match-up and per size, every deck checked before any game. Past ``seconds`` (default:
    :data:`RUN_SECONDS`), or once ``stopping()`` (the server shuts down), the run stops between chunks
    of games with :class:`OverBudget`. ``backend``: where the games are played (``cardbase serve``: its
    lab worker process, :class:`cardbase.sim.thinkers.WorkerChunks`; None: this thread); the results
    do not depend on it."""
    from cardbase.lab.common import mea_study_options
    from cardbase.lab.gauntlet import run_gauntlet
    from cardbase.lab.opening import SIZES, run_opening
    from cardbase.sim.registry import game
    from cardbase.sim.table_setup import DeckChoice, load_choice

    check_game(database, deck_id)
    if not 2 <= games <= MAX_GAMES:
        said = f"games must be a whole number from 2 to {MAX_GAMES:,}, not {games}"
        raise UsageError(said).taking("games", str(games))
    if not field:
        raise UsageError("choose at least one deck to play against").taking("against", "")
    if len(field) > MAX_FIELD:
        raise UsageError(f"choose at most {MAX_FIELD} decks to play against, not {len(field)}").taking(
            "against", field[-1]
        )
    vs_key = vs or field[0]
    options = mea_study_options()
    deck = load_choice(database, DeckChoice(deck_id=deck_id), "this deck", house)
    played = [_load(database, "against", key, house) for key in field]
    loaded = [deck, *(d for d, _ in played)]
    opponent, vs_arg = _load(database, "vs", vs_key, house)
    entry = game("mea")
    entry.check_agents(list(AGENTS))
    total = games * (len(field) + len(SIZES))
    on_progress = _budget(RUN_SECONDS if seconds is None else seconds, total, stopping or (lambda: False))
    gauntlet = run_gauntlet(loaded, AGENTS, options, games, seed, backend, on_progress=on_progress)
    opening = run_opening([deck, opponent], AGENTS, options, games, seed, backend, on_progress)
    field_args = tuple(arg for _, arg in played)
    notes = _notes(gauntlet, opening, loaded, opponent)
    return LabRun(gauntlet, opening, games, seed, opponent.label, vs_key, field_args, vs_arg, notes)


def _notes(gauntlet: Gauntlet, opening: OpeningStudy, loaded: list[Any], opponent: Any) -> list[str]:
    """The two studies' notes as one list, each once: the rules' notes over every deck of the run
    (each deck named once, not once per study), then the studies' others (cards left out)."""
    from cardbase.lab.common import study_notes

    per_study = {*study_notes(loaded), *study_notes([loaded[0], opponent])}
    out = study_notes([*loaded, opponent])
    for line in (*gauntlet.notes, *opening.notes):
        if line not in per_study and line not in out:
            out.append(line)
    return out


INPUT_WORDS = {"against": "against", "vs": "opening against"}


def _load(database: Database, name: str, key: str, house: Any) -> tuple[Any, str]:
    """The deck ``key`` of the input ``name`` ready to play, and the argument that names it at the
    terminal (``db:NAME``, ``examples/decks/FILE``); a refusal says which input gave it."""
    from cardbase.decks.store import UnknownDeck, deck_by_id
    from cardbase.errors import DatabaseError, prefixed
    from cardbase.sim.table_setup import load_choice

    words = INPUT_WORDS[name]
    try:
        choice = deck_choice(key, words)
        # a saved deck is named by its name (the player's word for it), an example by its key
        name_of = deck_by_id(database, choice.deck_id).name if choice.deck_id is not None else None
        label = key if name_of is None else name_of
        argument = f"examples/decks/{choice.example}" if name_of is None else f"db:{name_of}"
        return load_choice(database, choice, f"{words} {quoted(label)}", house), argument
    except DatabaseError:
        raise  # busy or unusable: the database's, not the input's
    except UnknownDeck as error:  # no deck of that id: a bad value of the input (400), not a page not there
        said = error.args[0] if error.args and isinstance(error.args[0], str) else str(error)  # maybe a Said
        raise UsageError(prefixed(f"{words} {quoted(key)}: ", said)).taking(name, key) from None
    except CardbaseError as error:
        raise error.taking(name, key) from None


def _budget(seconds: float, total: int, stopping: Callable[[], bool]) -> Callable[[int], None]:
    """A progress callback that stops the run (:class:`OverBudget`) once ``seconds`` have passed or
    ``stopping()`` says so."""
    started = time.monotonic()
    played = [0]

    def on_progress(k: int) -> None:
        played[0] += k
        if played[0] >= total:
            return
        done = f"{played[0]:,} of {counted(total, 'game')} played"
        if stopping():
            raise OverBudget(f"the server is stopping: the lab run stopped with {done}")
        if time.monotonic() - started > seconds:
            raise OverBudget(
                f"the lab run stopped after {seconds:g} s, with {done}: choose fewer games or fewer decks to "
                "play against (at the command line the lab has no time limit)"
            )

    return on_progress
