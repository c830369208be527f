"""Meikyu's card pool for simulation and play, read from the catalog database, and the
Meikyu part of a batch report (game length, how games ended, points by land, and which
values were assumed).

The engine never guesses: without an assumption profile, a catalog that lacks a value
the rules need is refused with the list of what is missing. Values a user imported with
``cardbase catalog import`` are in the database and are used as they are.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardbase.errors import CardbaseError, Said, counted, quoted
from cardbase.games.meikyu.cards import MeikyuCard, MeikyuCardType
from cardbase.games.meikyu.codes import A_ORDER, OPEN
from cardbase.games.meikyu.engine import MeikyuObservation
from cardbase.games.meikyu.pool import (
    CardPool,
    Resolution,
    assumed_census,
    assumed_summary,
    is_assumed,
    resolve_pool,
)
from cardbase.sim.stats import number
from cardbase.stats import score_interval

if TYPE_CHECKING:
    from cardbase.db.engine import Database

IMPORT_HINT = Said(
    "Import the real values from your spreadsheet (cardbase catalog import FILE --game meikyu; columns name, "
    "type, level, points, developed_points, bravery, wits, copies), or run with the shipped assumptions "
    "(--assume default), or your own profile file (--assume my-profile.json); every assumed value is then "
    "listed in the report.",
    "Import the real values from your spreadsheet on the catalog page (columns name, type, level, points, "
    "developed_points, bravery, wits, copies), or choose the assumption profile 'default' (the shipped "
    "assumptions); every assumed value is then marked as assumed.",
)
"""What to do when the catalog lacks Meikyu values: the command line's words, and a page's."""


class MissingCardValues(CardbaseError, ValueError):
    """The catalog (with the profile, if any) lacks values the rules need; lists them."""

    exit_code = 1

    def __init__(self, resolution: Resolution, profile: str | None):
        self.resolution = resolution
        self.profile = profile
        lines = [*resolution.problems, *resolution.missing]
        if resolution.missing:
            where = "the catalog" if profile is None else f"the catalog and the profile {quoted(profile)} together"
            head = (
                f"cannot play Meikyu Kingdom: {where} lack{'s' if profile is None else ''} "
                f"{resolution.census} the rules need (the rulebook does not give them):"
            )
        else:
            head = "cannot play Meikyu Kingdom: the card pool is inconsistent:"
        hint = [IMPORT_HINT] if profile is None else []
        super().__init__(self._listing(head, [*lines, *hint], len(lines) + len(hint)))


def catalog_cards(database: Database, set_code: str = "core") -> list[MeikyuCard]:
    """The Meikyu cards of one set of the catalog database, as card definitions."""
    from sqlmodel import col, select

    from cardbase.db.models import Card, CardAlias

    with database.session() as session:
        rows = session.scalars(
            select(Card).where(Card.game == "meikyu", Card.set_code == set_code).order_by(Card.name)
        ).all()
        aliases: dict[str, list[str]] = {}
        ids = [c.id for c in rows]
        if ids:
            for alias in session.scalars(select(CardAlias).where(col(CardAlias.card_id).in_(ids))):
                aliases.setdefault(alias.card_id, []).append(alias.alias)
    out = []
    for c in rows:
        out.append(
            MeikyuCard(
                name=c.name,
                type=MeikyuCardType(c.type),
                set=c.set_code,
                source=c.source,
                land_name=c.land_name,
                level=c.level,
                points=c.points,
                developed_points=c.developed_points,
                bravery=c.bravery,
                wits=c.wits,
                text=c.text,
                copies=c.copies,
                aliases=tuple(sorted(aliases.get(c.id, ()))),
                notes=c.notes,
            )
        )
    return out


def resolve(cards: Sequence[MeikyuCard], assume: str | None) -> CardPool:
    """The pool of ``cards`` completed by the profile ``assume`` (a shipped name or a file);
    raises :class:`MissingCardValues` listing what is still missing."""
    profile = None
    if assume is not None:
        from cardbase.catalog.meikyu_profiles import load_profile

        profile = load_profile(assume)
    resolution = resolve_pool(cards, profile)
    if resolution.pool is None:
        raise MissingCardValues(resolution, assume)
    return resolution.pool


def pool_from_database(db: str | None, assume: str | None, set_code: str = "core") -> CardPool:
    """The pool from the catalog database at ``db`` (see :func:`resolve`)."""
    from cardbase.db.engine import open_database

    database = open_database(db)
    try:
        cards = catalog_cards(database, set_code)
    finally:
        database.engine.dispose()
    return resolve(cards, assume)


def assumed_lines(pool: CardPool) -> list[str]:
    """What a report says about assumed values: none, or how many and which."""
    if not pool.assumed:
        return ["Card values: all from the catalog (no assumed values)."]
    grouped = assumed_summary(pool.assumed)
    return [
        f"ASSUMED VALUES: {assumed_census(pool.assumed)} come from the assumption "
        f"profile {quoted(pool.profile)}, not from the rulebook or the catalog:",
        *(f"  {line}" for line in grouped),
    ]


def batch_report(batch: Any) -> dict[str, Any]:
    """The Meikyu facts of a finished batch: assumed values, game length, how games ended,
    points by land. Reads each game's facts (see :meth:`MeikyuState.facts`)."""
    pool: CardPool = batch.rules.pool
    played = [r for r in batch.results if r.facts]
    summaries = [dict(r.facts) for r in played]
    turns = [s["turns"] for s in summaries]
    mean, low, high = score_interval([float(t) for t in turns], 0.0, None)
    ended: dict[str, int] = {}
    for s in summaries:
        ended[s["end"]] = ended.get(s["end"], 0) + 1
    lands: dict[str, dict[str, float]] = {}
    by_game: dict[str, list[float]] = {}  # per land: its points in the kingdoms at the end of each game
    for k, (r, s) in enumerate(zip(played, summaries, strict=True)):
        for seat, kingdom in enumerate(s["lands"]):
            for name, points in kingdom:
                row = lands.setdefault(name, {"held": 0, "points": 0, "winners": 0})
                row["held"] += 1
                row["points"] += points
                if seat in r.winners:
                    row["winners"] += 1
                by_game.setdefault(name, [0.0] * len(summaries))[k] += points
    games = len(summaries) or 1
    labels = {land.name: land.label for land in pool.lands}
    land_rows = [
        {
            "land": labels.get(name, name),
            "room": name,
            "held_at_end": int(v["held"]),
            "points_at_end": int(v["points"]),
            "points_per_game": v["points"] / games,
            "points_per_game_95": [number(x) for x in score_interval(by_game[name], 0.0, None)[1:]],
            "in_winning_kingdoms": int(v["winners"]),
            "assumed": pool.assumes(name),
        }
        for name, v in sorted(lands.items(), key=lambda kv: (-kv[1]["points"], kv[0]))
    ]
    refugees = sum(sum(s.get("refugees", [])) for s in summaries)
    return {
        "assumed": {
            "profile": pool.profile,
            "count": assumed_census(pool.assumed).to_dict(),
            "values": list(pool.assumed),
        },
        "game_length_turns": {
            "mean": mean,
            "mean_95": [number(low), number(high)],
            "min": min(turns) if turns else None,
            "median": statistics.median(turns) if turns else None,
            "max": max(turns) if turns else None,
        },
        "ended": ended,
        "points_by_land": land_rows,
        "refugees_at_end": refugees,
    }


# --- batch and play, for the CLI --------------------------------------------------------


def make_rules(pool: CardPool, players: int, **readings: Any) -> Any:
    """Meikyu rules for a pool; a bad option is a :class:`~cardbase.errors.UsageError`."""
    from cardbase.sim.registry import game

    return game("meikyu").make_rules({"players": players, "pool": pool, **readings})


def prepare(db: str | None, assume: str | None, players: int, agents: list[str], **options: Any) -> Any:
    """The rules of a batch, checked with its agents: bad agent names fail first, then the pool
    (missing values without ``assume``), the options, and each agent's own options."""
    from cardbase.sim.registry import game

    entry = game("meikyu")
    entry.check_agents(agents)
    rules = make_rules(pool_from_database(db, assume), players, **options)
    for seat, name in enumerate(agents):
        entry.make_agent(name, rules, seat, 0)
    return rules


def rules_summary(rules: Any) -> dict[str, Any]:
    """The rules' options for a report, with the pool summarised (counts, profile)."""
    options: dict[str, Any] = rules.to_options()
    pool = rules.pool
    options["pool"] = {
        "lands": pool.land_count,
        "kingdom_cards": pool.kingdom_count,
        "profile": pool.profile,
        "assumed": assumed_census(pool.assumed).to_dict(),
    }
    return options


def batch_data(batch: Any, record_path: Any = None) -> dict[str, Any]:
    """The report of a finished Meikyu batch (the JSON of ``sim meikyu``): win rates, the rules, the facts."""
    data: dict[str, Any] = batch.to_dict()
    data["rules"] = rules_summary(batch.rules)
    data["meikyu"] = batch_report(batch)
    if record_path is not None:
        data["records"] = str(record_path)
    return data


PLAY_HELP = """Commands:
  <action>   your move, for example:
               quest 2 with Bee, Sword          (room by number or name; cards by name)
               quest Den of the Geister with Warzard, Grimoire, Sword
               develop 1 with Valeel, Doctor    (your land by number or name)
               attack P2 1 with Executioner by Gotcha!   (or: by Council Chamber)
               resupply · map · mixed area P3
               defend with Bee · defend · amulet · pass · draw · tomb
               keep Bee · return Bee · discard Sword · discard land Farm · give Farm
               discard Sword, Bee, Cook        (every card of a discard in one line, in order)
             "Sword as character" plays an item as a 2-sword character (Laboratory).
  card <name>   a card's values (and which are assumed)
  assumptions   every assumed value
  hint       the search agent's best move and the next, with 95% intervals (or: too close to call)
  undo       take back your last action (until a card is drawn, a deal or a die roll, or another moves)
  legal      list your legal moves by kind (legal quest: every quest)
  show       show the table again
  help       this text
  quit       leave the game (the record keeps the moves so far; so does Ctrl-C)
A unique start or a close spelling of a card or room name is enough (quest den with bee); Tab completes."""


def play_session(
    rules: Any,
    seat: int,
    vs: str,
    seed: int,
    record: Any,
    echo: Any,
    read: Any = None,
    seed_chosen: bool = True,
    done: Any = None,
) -> Any:
    """Play one game in a terminal: a person at ``seat`` (1-based), agents elsewhere.
    ``read`` defaults to the prompt (:func:`cardbase.sim.prompt.make_reader`); a seed the person did
    not choose is named when the game is over (:func:`cardbase.sim.play.seed_words`). ``done`` says
    where the record was saved (default ``echo``; the CLI's says nothing of standard output)."""
    from cardbase.errors import UsageError
    from cardbase.sim.play import hinter, play_interactive, seed_after, seed_words
    from cardbase.sim.records import record_lines, save_record
    from cardbase.sim.registry import derive_seed, game

    entry = game("meikyu")
    n = rules.players
    if not 1 <= seat <= n:
        raise UsageError(f"--seat must be 1 to {n}, not {seat}")
    human = seat - 1
    names = [v.strip() for v in vs.split(",")]
    others = [s for s in range(n) if s != human]
    if len(names) == 1:
        names = names * len(others)
    if len(names) != len(others):
        raise UsageError(f"--vs needs one agent, or one per other seat ({len(others)}), not {quoted(vs)}")
    agents = {
        s: entry.make_agent(a, rules, s, derive_seed(seed, "play", s)) for s, a in zip(others, names, strict=True)
    }
    hint = hinter("meikyu", rules, seed)

    seats = ", ".join(f"P{s + 1} {agents[s].name}" for s in others)
    echo(
        f"Meikyu Kingdom, {counted(n, 'player')}, {seed_words(seed, seed_chosen)}. You are P{seat}; {seats}. "
        "The highest roll goes first."
    )
    assumed = assumptions_line(rules.pool)
    if assumed is not None:
        echo(f"Note: {assumed}")
    echo("Type help for the commands.")
    ui = play_ui(rules)
    if read is None:
        from cardbase.sim.prompt import history_path, make_reader

        read = make_reader(ui.vocabulary, history=history_path())
    session = play_interactive(rules, seed, human, agents, read, echo, hint, help_text=PLAY_HELP, ui=ui)
    if session.abandoned:
        echo("Game left unfinished.")
    if told := seed_after(seed, seed_chosen):
        echo(told)
    if record is not None:
        labels = ["human" if s == human else agents[s].name for s in range(n)]
        lines = record_lines(rules, seed, session.state.history, labels)
        save_record(record, lines)
        (done or echo)(f"Record: {record} (replay it: cardbase replay {record})")
    return session


# --- the play prompt: what happened, names, cards, the assumptions ---------------------

PLAY_WORDS = (
    "quest", "with", "develop", "attack", "by", "resupply", "map", "mixed", "area", "defend", "amulet", "pass",
    "draw", "tomb", "keep", "return", "discard", "land", "give", "as", "character",
)  # fmt: skip


def assumptions_line(pool: CardPool) -> str | None:
    """The one line the game starts with when values are assumed (``assumptions`` lists them)."""
    if not pool.assumed:
        return None
    return (
        f"{assumed_census(pool.assumed)} assumed; type 'assumptions' (ASSUMED values come from the profile "
        f"{quoted(pool.profile)}, not from the rulebook or the catalog)"
    )


def card_text(pool: CardPool, name: str) -> str:
    """``card NAME``: a Meikyu land or Kingdom card as the game plays it, with what is assumed."""
    assumed = [a for a in pool.assumed if a.startswith(name)]
    note = f"\n  assumed: {'; '.join(assumed)}" if assumed else ""
    for land in pool.lands:
        if name in (land.name, land.land_name):
            effect = f", effect: {land.effect}" if land.effect else ""
            return (
                f"{land.label} — Meikyu (land) card, quest level {land.level}, {counted(land.points, 'point')}, "
                f"{land.developed_points} developed{effect}, {counted(land.copies, 'copy', 'copies')}" + note
            )
    card = next(c for c in pool.kingdom if c.name == name)
    stats = f", {counted(card.bravery, 'sword')} / {counted(card.wits, 'seal')}" if card.type == "character" else ""
    effect = f", effect: {card.effect}" if card.effect else ""
    return f"{card.name} — {card.type}{stats}{effect}, {counted(card.copies, 'copy', 'copies')}" + note


def play_effects(before: MeikyuObservation, after: MeikyuObservation, done: str) -> list[str]:
    """What an action did, from the player's observations: lands conquered, won, lost or
    developed, points, Refugees, lost turns, quests and aggressions that failed, and a
    redeal at the setup (a player was dealt an OPEN card)."""
    t = before.rules.tables
    n = before.rules.players
    me = before.player
    lines: list[str] = []

    def seat(s: int) -> str:
        return f"P{s + 1}" + (" (you)" if s == me else "")

    def land(e: int) -> str:
        label: str = t.llabels[e >> 1] or t.lnames[e >> 1]
        return label.split(" (")[0]

    def worth(k: int, field: str, value: int) -> str:
        """A land's points, marked as the board marks them when the assumption profile gave them."""
        return f"{value}* pt, assumed" if is_assumed(before.rules.pool, t.lnames[k], field) else f"{value} pt"

    held_before = {e >> 1: s for s in range(n) for e in before.lands[s]}
    for s in range(n):
        old = {e >> 1: e for e in before.lands[s]}
        new = {e >> 1: e for e in after.lands[s]}
        for k, e in new.items():
            if k not in old:
                if k in held_before:
                    lines.append(f"{seat(s)} takes {land(e)} from {seat(held_before[k])}")
                else:
                    lines.append(
                        f"{seat(s)} conquers {t.lnames[k]}: the land {land(e)} ({worth(k, 'points', t.points[k])})"
                    )
            elif e & 1 and not old[k] & 1:
                lines.append(f"{seat(s)} develops {land(e)}: now {worth(k, 'developed_points', t.dev_points[k])}")
        for k, e in old.items():
            if k not in new and not any(k in {x >> 1 for x in after.lands[r]} for r in range(n)):
                lines.append(f"{seat(s)} loses {land(e)}")
        if len(after.refugees[s]) != len(before.refugees[s]):
            lines.append(f"{seat(s)}: Refugees {len(before.refugees[s])} → {len(after.refugees[s])}")
        if after.skips[s] > before.skips[s]:
            lines.append(f"{seat(s)} will lose {counted(after.skips[s], 'turn')}")
        if after.points[s] != before.points[s]:
            lines.append(f"{seat(s)}: {before.points[s]} → {counted(after.points[s], 'pt')}")
    if before.ask == A_ORDER and not after.inplay and len(before.inplay) > 1:
        named = done.rpartition("discard ")[2]
        rest = list(before.inplay)
        rest.remove(next(k for k in rest if t.knames[k] == named))
        cards = ", ".join(t.knames[k] for k in rest)
        lines.append(f"{cards} go{'es' if len(rest) == 1 else ''} on the discard pile too: no order left to choose")
    ctx = before.ctx
    if ctx is not None and after.ctx is None:
        if ctx.get("kind") == "quest" and ctx["room"] not in {e >> 1 for e in after.lands[ctx["player"]]}:
            lines.append(f"{seat(ctx['player'])}'s quest for {t.lnames[ctx['room']]} fails (level {ctx['level']})")
        elif ctx.get("kind") == "develop" and not any(
            e >> 1 == ctx["land"] and e & 1 for e in after.lands[ctx["player"]]
        ):
            lines.append(f"{seat(ctx['player'])} fails to develop {t.lnames[ctx['land']]}")
        elif ctx.get("kind") == "attack" and after.lands[ctx["defender"]] == before.lands[ctx["defender"]]:
            lines.append(f"{seat(ctx['defender'])} holds off {seat(ctx['attacker'])}'s aggression")
    if after.turns == 0 and not any(after.lands):
        for s in range(n):
            if before.hand_sizes[s] > 0 and after.hand_sizes[s] == 0:
                which = ""
                if s == me:
                    opens = [t.knames[k] for k in t.alpha if before.hand[k] and t.ktype[k] == OPEN]
                    which = f" ({', '.join(opens)})" if opens else ""
                lines.append(
                    f"redeal: {seat(s)} was dealt an OPEN card{which}, so their cards go back into the pile "
                    "and they are dealt new ones (the rulebook's setup)"
                )
    return lines


def several_discards(state: Any, line: str, vocabulary: Any = None) -> list[Any] | None:
    """``discard Bee, Sword, Cook`` at a decision that discards the player's cards one at a time
    (the used cards' order, step 3's discard down to five, the Refugee's two): the ``discard``
    actions, in the order named, each checked on a copy of ``state``. Of the used cards, those
    the rules discard without asking (the last ones, once all one card) may be named too.
    ``None`` if ``line`` is not such a list; :class:`~cardbase.games.base.IllegalAction` (nothing
    applied) if a card cannot be discarded or more are named than the decision discards.
    Names are written out as at the prompt (``vocabulary``: short and accent-free names)."""
    from collections import Counter

    from cardbase.games.base import IllegalAction
    from cardbase.names import fold
    from cardbase.sim.play import expand_names

    verb, _, rest = " ".join(line.split()).partition(" ")
    if fold(verb) != "discard" or "," not in rest or fold(rest).startswith("land "):
        return None
    p = state.current_player
    if p < 0:
        return None
    seen = state.observation(p)
    wanted = seen.discards_to_name()
    if not wanted:
        return None
    if vocabulary is not None:
        rest = expand_names(rest, vocabulary)
    names = [n.strip() for n in rest.split(",") if n.strip()]
    trial = state.clone()
    actions: list[Any] = []
    for k, name in enumerate(names):
        if trial.current_player != p or trial.observation(p).ask != seen.ask:  # the decision is over
            left = [seen.rules.parse_action(f"discard {n}").name for n in names[k:]]
            if seen.ask == A_ORDER:
                kind = seen.rules.tables.kindex
                auto = Counter(seen.inplay) - Counter(kind[a.name] for a in actions)
                if not Counter(kind[n] for n in left) - auto:
                    break  # they went on the pile without asking: the last cards, all one card
            raise IllegalAction(
                f"only {counted(len(actions), 'card')} to discard here "
                f"({', '.join(str(a).removeprefix('discard ') for a in actions)}): not {', '.join(left)}",
                "discard-count",
                p,
            )
        action = trial.parse_action(f"discard {name}")
        trial.apply(action)  # the rule's reason if it cannot be discarded
        actions.append(action)
    return actions


def play_ui(rules: Any) -> Any:
    """What ``play meikyu`` adds to the prompt: effects, names, ``card NAME``, ``assumptions``,
    several discards in one line."""
    from cardbase.sim.play import GameUI, Vocabulary

    pool: CardPool = rules.pool
    names = {c.name for c in pool.kingdom} | {c.name for c in pool.lands}
    names |= {c.land_name for c in pool.lands if c.land_name}
    vocabulary = Vocabulary(
        (*PLAY_WORDS, "card", "assumptions", "hint", "legal", "show", "help", "quit"),
        tuple(sorted(names)),
        re.compile(r"[Pp]\d"),
    )
    return GameUI(
        effects=play_effects,
        vocabulary=vocabulary,
        card=lambda observation, name: card_text(pool, name),
        commands={"assumptions": lambda observation: "\n".join(assumed_lines(pool))},
        several=lambda state, line: several_discards(state, line, vocabulary),
    )
