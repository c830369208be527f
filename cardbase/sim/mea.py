"""Méa decks against each other: deck files to engine decks, batches on both seats, and
the report (who wins and why).

A deck file is resolved against the catalog database (``decks.service.resolve_file``)
and checked against its format; its cards are read from the database with their
stats and abilities. A card with unknown stats cannot be played: the decks are
refused with the list of such cards, unless ``drop_unknown`` leaves them out (the
report then says so). Values are never invented. A card whose abilities are not
expressed as data plays as its bare stats, and the report names it; demo cards are
counted and labelled.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardbase.errors import InvalidData, Said, UsageError
from cardbase.games.base import InvalidRules
from cardbase.games.mea.abilities import AbilityError, parse_abilities
from cardbase.games.mea.cards import MeaCard, MeaCardType
from cardbase.games.mea.codes import END_DECK_OUT, END_HAND, END_NO_TILES, END_TURN_LIMIT
from cardbase.games.mea.rules import MeaDeck, MeaRules
from cardbase.sim.registry import derive_seed
from cardbase.sim.stats import number, wilson_interval
from cardbase.stats import score_interval

if TYPE_CHECKING:
    from cardbase.db.engine import Database
    from cardbase.decks.formats import HouseFormats
    from cardbase.sim.runner import ChunkMapper

END_WORDS = {
    END_NO_TILES: "controls no tiles",
    END_HAND: "11 cards in hand",
    END_DECK_OUT: "must obliterate a tile with none left (deck out)",
    END_TURN_LIMIT: "turn limit reached (more tiles wins)",
}


@dataclass
class LoadedDeck:
    """A deck file ready to play, and what the report must say about it."""

    path: str
    deck: MeaDeck
    dropped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """Warnings about the argument: a file read where a database deck has the same name."""

    @property
    def label(self) -> str:
        return self.deck.name or Path(self.path).stem


def card_from_row(row: Any) -> MeaCard:
    """A database ``Card`` row as the engine's card (abilities parsed from their JSON)."""
    from cardbase.db.models import abilities_data

    abilities = None
    data = abilities_data(row)
    if data is not None:
        try:
            abilities = parse_abilities(data, row.type, f"{row.name}: abilities")
        except AbilityError as error:
            raise InvalidData(row.id, [f"stored abilities are not valid: {error}"]) from None
    return MeaCard(
        name=row.name,
        type=MeaCardType(row.type),
        set=row.set_code,
        source=row.source,
        cost=row.cost,
        attack=row.attack,
        defence=row.defence,
        text=row.text,
        description=row.description,
        copies=row.copies,
        notes=row.notes,
        abilities=abilities,
    )


def load_deck(
    database: Database,
    path: Path,
    drop_unknown: bool = False,
    house: HouseFormats | None = None,
    drop_hint: str = "",
) -> LoadedDeck:
    """Read, resolve and check a Méa deck file; its cards with their values from the database.

    A deck with problems (unknown names, a broken format) is an :class:`InvalidData`
    listing them; so is a card with unknown stats, unless ``drop_unknown`` (``drop_hint``: how the
    caller says so; the CLI's flag by default).
    """
    from cardbase.decks.service import resolve_file

    resolved = resolve_file(database, path, "mea")
    return load_resolved(database, resolved, str(path), drop_unknown, house, drop_hint or DROP_HINT)


DROP_HINT = "pass --drop-unknown to leave it out"
"""How a command leaves out a card of unknown stats (``sim``, ``play``, ``lab``)."""


def load_resolved(
    database: Database,
    resolved: Any,
    source: str,
    drop_unknown: bool = False,
    house: HouseFormats | None = None,
    drop_hint: str = DROP_HINT,
    rows: Mapping[str, Any] | None = None,
) -> LoadedDeck:
    """A resolved Méa deck (a file, a database deck, a pasted list) checked and ready to play;
    ``source`` names it in messages, ``drop_hint`` says how the caller leaves out a card of unknown
    stats (the table has no --drop-unknown); ``rows``: its cards' ``Card`` rows by id, read before
    (a listing checks many decks), else read here. See :func:`load_deck`."""
    from sqlmodel import col, select

    from cardbase.db.models import Card
    from cardbase.decks.service import validate_resolved

    path = Path(source)
    if resolved.game != "mea":  # a database deck is resolved as its own game's: checked by those rules, then played
        from cardbase.decks.model import worded

        other = resolved.game
        wrong = worded("wrong-game", lambda name: f"the deck is a {name(other)} deck, not {name('mea')}", other)
        raise InvalidData(source, [str(wrong)], writes=False, found=[wrong])
    report, _ = validate_resolved(resolved, None, house)
    if not report.valid:
        errors = [p for p in report.problems if p.severity == "error"]
        raise InvalidData(source, [str(p) for p in errors], writes=False, found=errors)
    if rows is None:
        ids = [c.card_id for c in resolved.deck.main.cards]
        with database.session() as session:
            rows = {row.id: row for row in session.scalars(select(Card).where(col(Card.id).in_(ids)))}
    counts: Counter[str] = Counter()
    for c in resolved.deck.main.cards:
        counts[c.card_id] += c.count
    cards: list[tuple[MeaCard, int]] = []
    unknown: list[str] = []
    for card_id, n in counts.items():
        card = card_from_row(rows[card_id])
        if card.unknown_stats:
            unknown.append(f"{card.name} ({card.set}): unknown {', '.join(card.unknown_stats)}")
            continue
        cards.append((card, n))
    if unknown and not drop_unknown:
        raise InvalidData(
            source,
            [
                *unknown,
                Said(
                    "a card with unknown stats cannot be simulated: give its values "
                    "(cardbase catalog edit NAME FIELD=VALUE), import them (cardbase catalog import FILE --game mea) "
                    f"or {drop_hint}",
                    "a card with unknown stats cannot be simulated: give its values on its Edit page, import them "
                    f"on the catalog page, or {drop_hint}",
                ),
            ],
            writes=False,
        )
    if not cards:
        raise InvalidData(source, ["no card of the deck can be simulated"], writes=False)
    name = resolved.deck.name or path.stem
    notes = [f"{p.message} ({p.hint})" for p in resolved.problems if p.code == "file-and-database-deck"]
    return LoadedDeck(source, MeaDeck(name, tuple(cards)), unknown, notes)


def prepare(
    db: str | None,
    paths: tuple[Path, Path],
    agents: Sequence[str],
    options: dict[str, Any],
    drop_unknown: bool,
    house: HouseFormats | None = None,
) -> list[LoadedDeck]:
    """The two decks of a batch, loaded and checked with the agents and options: every bad name,
    deck or option fails here, before any game (agents first, then the database, decks, rules)."""
    from cardbase.db.engine import open_database
    from cardbase.sim.registry import game

    entry = game("mea")
    entry.check_agents(list(agents))
    database = open_database(db)
    loaded = [load_deck(database, p, drop_unknown, house) for p in paths]
    rules = make_rules([loaded[0].deck, loaded[1].deck], options)
    for seat, name in enumerate(agents):
        entry.make_agent(name, rules, seat, 0)
    return loaded


def make_rules(decks: Sequence[MeaDeck], options: dict[str, Any]) -> MeaRules:
    """Rules for ``decks`` (seat 0 first) and the variant ``options``; bad options are usage errors."""
    from cardbase.sim.registry import rules_refusal

    try:
        return MeaRules(decks=(decks[0], decks[1]), **options)
    except InvalidRules as error:
        raise rules_refusal(error, options) from None
    except TypeError as error:
        raise UsageError(f"bad Méa option: {error}") from None


@dataclass(frozen=True)
class Arrangement:
    """Who sits where in a share of the games: ``decks[s]`` (0: --deck, 1: --vs) and
    ``agents[s]`` for seat ``s`` (seat 0 goes first)."""

    decks: tuple[int, int]
    agents: tuple[str, str]


def arrangements(agents: tuple[str, str], swap_agents: bool) -> list[Arrangement]:
    """Each deck on both seats; with ``swap_agents``, each agent with both decks too."""
    a, b = agents
    out = [Arrangement((0, 1), (a, b)), Arrangement((1, 0), (b, a))]
    if swap_agents:
        out += [Arrangement((0, 1), (b, a)), Arrangement((1, 0), (a, b))]
    return out


@dataclass
class MeaGame:
    """One game of a Méa batch, by deck (0: --deck, 1: --vs)."""

    arrangement: int
    index: int
    first: int
    agents: tuple[str, str]
    winners: tuple[int, ...]
    reason: str
    end: str
    turns: int
    openings: tuple[int, int]
    decisions: int
    drawn: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
    """By deck: the names of the cards drawn at any point of the game (the opening included)."""
    opening_hand: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
    """By deck: the names of the cards of the opening hand."""


@dataclass
class MeaBatch:
    """A finished deck-against-deck batch, with its report."""

    decks: list[LoadedDeck]
    agents: tuple[str, str]
    options: dict[str, Any]
    seed: int
    games: list[MeaGame]
    jobs: int
    swap_agents: bool
    elapsed: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def decisions(self) -> int:
        return sum(g.decisions for g in self.games)

    def _rate(self, games: Sequence[MeaGame], deck: int) -> dict[str, Any]:
        wins = sum(1 for g in games if g.winners == (deck,))
        shared = sum(1 for g in games if len(g.winners) == 2)
        rate, lo, hi = wilson_interval(wins, len(games))
        return {"games": len(games), "wins": wins, "shared": shared, "win_rate": rate, "win_rate_95": [lo, hi]}

    @property
    def compares(self) -> str:
        """What the win rates compare: ``decks`` (the same agent on both sides), ``agents`` (the same
        deck on both sides), ``decks and agents`` (both differ: a deck's rate is partly its agent's),
        or ``seats`` (both the same: only the order of play differs)."""
        same_agents = self.agents[0] == self.agents[1]
        same_decks = sorted(self.decks[0].deck.cards, key=repr) == sorted(self.decks[1].deck.cards, key=repr)
        if same_agents:
            return "seats" if same_decks else "decks"
        return "agents" if same_decks else "decks and agents"

    def comparison(self) -> str:
        """:attr:`compares` in a sentence, for the report."""
        a, b = self.agents
        return {
            "decks": f"compares the decks: the same agent ({a}) plays both",
            "agents": f"compares the agents: both play the same deck ({a} against {b})",
            "seats": "compares the seats: the same deck and agent on both sides",
            "decks and agents": (
                f"compares decks and agents together: each deck is played by {a} and by {b}, so a deck's rate "
                "mixes in its agents' (the stronger agent wins most games whatever its deck); to compare the "
                "decks, give one agent to both; to compare the agents, give both one deck"
                if self.swap_agents
                else f"compares decks and agents together: {a} plays one deck and {b} the other, so a deck's rate "
                "is partly its agent's; to compare the decks, give one agent to both; to compare the agents, "
                "give both one deck"
            ),
        }[self.compares]

    def report(self) -> dict[str, Any]:
        """The whole report as JSON-able data."""
        games = self.games
        labels = [d.label for d in self.decks]
        decks = []
        for k in (0, 1):
            entry = {
                "deck": labels[k],
                "file": self.decks[k].path,
                "agent": self.agents[k] if not self.swap_agents else "both",
                "cards": self.decks[k].deck.size,
                "demo_cards": self.decks[k].deck.demo_cards,
                "bare_stats": list(self.decks[k].deck.unexpressed),
                "dropped_unknown": self.decks[k].dropped,
                "overall": self._rate(games, k),
                "going_first": self._rate([g for g in games if g.first == k], k),
                "going_second": self._rate([g for g in games if g.first != k], k),
            }
            decks.append(entry)
        agents = {}
        for name in sorted({a for g in games for a in g.agents} if self.agents[0] != self.agents[1] else ()):
            played = [(g, k) for g in games for k in (0, 1) if g.agents[k] == name]
            wins = sum(1 for g, k in played if g.winners == (k,))
            rate, lo, hi = wilson_interval(wins, len(played))
            agents[name] = {"games": len(played), "wins": wins, "win_rate": rate, "win_rate_95": [lo, hi]}
        turns = [float(g.turns) for g in games]
        mean, lo, hi = score_interval(turns, 0.0, None)
        ordered = sorted(turns)
        ends: dict[str, dict[str, Any]] = {}
        for code in sorted({g.end for g in games}):
            these = [g for g in games if g.end == code]
            lost = Counter(labels[1 - g.winners[0]] for g in these if len(g.winners) == 1)
            ends[code] = {
                "games": len(these),
                "share": len(these) / len(games),
                "what": END_WORDS.get(code, code),
                "lost_by": dict(lost),
            }
        return {
            "game": "mea",
            "decks": decks,
            "agents_by_deck": list(self.agents),
            "swap_agents": self.swap_agents,
            "compares": self.compares,
            "comparison": self.comparison(),
            "agents": agents,
            "games": len(games),
            "seed": self.seed,
            "jobs": self.jobs,
            "shared_results": sum(1 for g in games if len(g.winners) == 2),
            "turns": {
                "mean": mean,
                "mean_95": [number(lo), number(hi)],
                "median": statistics.median(ordered) if ordered else None,  # even count: the middle two's mean
                "min": ordered[0] if ordered else None,
                "max": ordered[-1] if ordered else None,
            },
            "endings": ends,
            "options": self.options,
            "notes": self.notes,
            "decisions": self.decisions,
            "elapsed_seconds": round(self.elapsed, 3),
        }


def _by_deck(by_seat: Any, seats_to_deck: tuple[int, int]) -> tuple[frozenset[str], frozenset[str]]:
    """A per-seat fact of names as a per-deck pair of sets."""
    out: list[frozenset[str]] = [frozenset(), frozenset()]
    for s, names in enumerate(by_seat or ((), ())):
        out[seats_to_deck[s]] = frozenset(names)
    return (out[0], out[1])


def run_mea_batch(
    decks: Sequence[LoadedDeck],
    agents: tuple[str, str],
    options: dict[str, Any],
    games: int,
    seed: int,
    jobs: int = 1,
    swap_agents: bool = False,
    on_progress: Callable[[int], None] | None = None,
    on_records: Callable[[Sequence[str]], None] | None = None,
    backend: ChunkMapper | None = None,
) -> MeaBatch:
    """Play ``games`` games of ``decks[0]`` against ``decks[1]``, each deck going first in
    half of them (and, with ``swap_agents``, each agent playing each deck). Game ``i``
    belongs to arrangement ``i % k``; the results do not depend on ``jobs``."""
    (batch,) = run_mea_batches(
        [(decks, agents, seed)], options, games, jobs, swap_agents, on_progress, on_records, backend
    )
    return batch


def run_mea_batches(
    matchups: Sequence[tuple[Sequence[LoadedDeck], tuple[str, str], int]],
    options: dict[str, Any],
    games: int,
    jobs: int = 1,
    swap_agents: bool = False,
    on_progress: Callable[[int], None] | None = None,
    on_records: Callable[[Sequence[str]], None] | None = None,
    backend: ChunkMapper | None = None,
) -> list[MeaBatch]:
    """:func:`run_mea_batch` for each match-up ``(decks, agents, seed)``, every arrangement of
    every match-up in one stream of chunks (:func:`cardbase.sim.runner.run_batches`): the same
    games as one after another, without a worker idling at the end of each."""
    import time

    from cardbase.sim.runner import BatchPlan, run_batches

    plans: list[BatchPlan] = []
    placed: list[tuple[int, int, int, Arrangement]] = []  # per plan: match-up, arrangement, of how many
    for m, (decks, agents, seed) in enumerate(matchups):
        plan = arrangements(agents, swap_agents)
        k = len(plan)
        engine_decks = [d.deck for d in decks]
        for a, arr in enumerate(plan):
            count = len(range(a, games, k))
            if count == 0:
                continue
            rules = make_rules([engine_decks[arr.decks[0]], engine_decks[arr.decks[1]]], options)
            plans.append(BatchPlan("mea", rules, arr.agents, count, derive_seed(seed, "mea", a)))
            placed.append((m, a, k, arr))
    started = time.perf_counter()
    played = run_batches(plans, jobs=jobs, on_progress=on_progress, on_records=on_records, backend=backend)
    elapsed = time.perf_counter() - started
    out: list[list[MeaGame]] = [[] for _ in matchups]
    for (m, a, k, arr), batch in zip(placed, played, strict=True):
        seats_to_deck = arr.decks
        for r in batch.results:
            facts = dict(r.facts)
            openings = facts.get("openings") or [0, 0]
            by_deck = [0, 0]
            for s in (0, 1):
                by_deck[seats_to_deck[s]] = openings[s] or 0
            out[m].append(
                MeaGame(
                    arrangement=a,
                    index=a + k * r.index,
                    first=seats_to_deck[0],
                    agents=(arr.agents[seats_to_deck.index(0)], arr.agents[seats_to_deck.index(1)]),
                    winners=tuple(sorted(seats_to_deck[w] for w in r.winners)),
                    reason=r.reason,
                    end=str(facts.get("end")),
                    turns=int(facts.get("turns", 0)),
                    openings=(by_deck[0], by_deck[1]),
                    decisions=r.decisions,
                    drawn=_by_deck(facts.get("drawn"), seats_to_deck),
                    opening_hand=_by_deck(facts.get("opening_hand"), seats_to_deck),
                )
            )
    results = []
    for (decks, agents, seed), games_of in zip(matchups, out, strict=True):
        games_of.sort(key=lambda g: g.index)
        result = MeaBatch(list(decks), agents, options, seed, games_of, jobs, swap_agents)
        result.elapsed = elapsed
        result.notes = make_rules([d.deck for d in decks], options).report_notes()
        for d in decks:
            if d.dropped:
                result.notes.append(f"left out of {d.label} (unknown stats): {'; '.join(d.dropped)}")
        results.append(result)
    return results
