"""``cardbase sim``: many seeded games between agents, with a table of results.

One command per game (``sim meio``; other games add theirs); each declares its
own variant options and calls :func:`run_sim`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cardbase.cli import complete
from cardbase.cli.common import (
    FIRST_SECOND,
    MAX_SEED,
    DaskOption,
    DbOption,
    FormatsOption,
    JsonOption,
    checked_path,
    console,
    loaded_notes,
    note,
    one_line,
    print_json,
)
from cardbase.errors import counted, quoted
from cardbase.sim.options import mea_options, rules_options
from cardbase.stats import places, rate_text, shown, wilson

if TYPE_CHECKING:  # imported lazily at run time
    from rich.console import RenderableType

    from cardbase.games.base import Rules
    from cardbase.sim.runner import BatchResult

app = typer.Typer(
    help="Simulate many games between agents.\n\nExample: cardbase sim meio --players 3 --games 200",
    no_args_is_help=True,
)

MAX_GAMES = 1_000_000
"""A million games is hours of search-agent play; more is a typo, not a plan."""
MAX_JOBS = 64

AgentsOption = Annotated[
    str | None,
    typer.Option(
        "--agents",
        "-a",
        shell_complete=complete.agents,
        help="One agent per seat, comma-separated (random, heuristic, search, ismcts).",
        show_default=False,
    ),
]
GamesOption = Annotated[int, typer.Option("--games", "-g", min=1, max=MAX_GAMES, help="How many games.")]
SeedOption = Annotated[int, typer.Option("--seed", "-s", min=0, max=MAX_SEED, help="Seed of the whole batch.")]
JobsOption = Annotated[
    int,
    typer.Option(
        "--jobs", "-j", min=1, max=MAX_JOBS, help="Processes, or --dask local's workers (results do not depend on it)."
    ),
]
RecordsOption = Annotated[
    Path | None,
    typer.Option("--records", help="Write every game's record (JSON Lines) into this folder.", callback=checked_path),
]
RuleOption = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        "-r",
        shell_complete=complete.rules,
        help="Any rules option as NAME=VALUE, repeatable (e.g. --rule tiles_per_colour=9); the options and "
        "their readings are in docs/rules/<game>.md. One that contradicts a flag (--ace-low with ace_high=yes) is "
        "refused; kept in game records.",
        show_default=False,
    ),
]


def parse_agents(text: str | None, players: int, default: list[str]) -> list[str]:
    """The agent names, one per seat."""
    from cardbase.errors import UsageError

    names = [a.strip() for a in text.split(",")] if text else default[:players]
    if len(names) != players:
        raise UsageError(
            f"--agents needs one agent per seat ({counted(players, 'player')}), got {len(names)}: "
            f"{quoted(','.join(names))}"
        )
    return names


def run_sim(
    game_id: str,
    options: dict[str, Any],
    agents: list[str],
    games: int,
    seed: int,
    jobs: int,
    json: bool,
    records: Path | None,
    dask: str | None = None,
) -> None:
    """Run a batch and print its table (or JSON)."""
    from cardbase.sim.registry import game
    from cardbase.sim.runner import backend, run_batch

    entry = game(game_id)
    rules = entry.make_rules(options)
    filename = f"{game_id}-{rules.players}p-seed{seed}.jsonl"
    with (
        backend(jobs, dask, note) as mapper,
        _batch_output(entry.title, games, records, filename) as (on_progress, on_records, record_path),
    ):
        batch = run_batch(
            game_id, rules, agents, games, seed=seed, on_progress=on_progress, on_records=on_records, backend=mapper
        )
    data = batch.to_dict()
    if record_path is not None:
        data["records"] = str(record_path)
    if json:
        print_json(data)
        return
    _print_table(batch, record_path)


def _score_method(rules: Rules) -> str:
    """How the mean score's interval is made (``cardbase.stats.score_interval``), in words."""
    low, high = rules.score_range
    if low is not None and high is not None:
        return f"the mean of a score from {low:g} to {high:g}, kept inside that range"
    return "mean ± t·s/√n (Student's t)" + (f", never below {low:g}" if low is not None else "")


def _mean(mean: float, low: float | None, high: float | None, digits: int) -> tuple[str, str]:
    """A mean and its interval for the terminal, to the digits the interval gives (at most ``digits``);
    ``?`` at an end the games do not bound (None or infinite: one game, or games that all scored the
    same, bound a mean only by the least possible score), the mean then with no digit past its first
    (one game's 10 points are 10, not 10.00: nothing says how sure it is)."""
    ends = [-math.inf if low is None else low, math.inf if high is None else high]
    if math.isfinite(ends[0]) and math.isfinite(ends[1]) and ends[1] <= ends[0]:  # a point: no games differ
        return f"{mean:.{digits}f}", f"{ends[0]:.{digits}f}–{ends[1]:.{digits}f}"
    value, lo, hi = shown(mean, ends[0], ends[1], scale=1.0)
    if value == "—":  # no games
        return value, value
    if not (math.isfinite(ends[0]) and math.isfinite(ends[1])):
        return value, f"{lo}–{hi}"
    if places(ends[0], ends[1], scale=1.0) > digits:  # never more digits than before
        value, lo, hi = f"{mean:.{digits}f}", f"{ends[0]:.{digits}f}", f"{ends[1]:.{digits}f}"
    return value, f"{lo}–{hi}"


def _print_table(batch: BatchResult, record_path: Path | None) -> None:
    from rich.table import Table

    from cardbase.sim.registry import game

    rules = batch.rules
    title = game(batch.game_id).title
    from cardbase.sim.wording import rules_in_words

    options = rules_in_words(batch.game_id, rules.to_options())
    table = Table(
        title=(
            f"{title}: {counted(batch.games, 'game')}, {counted(rules.players, 'player')}, seed {batch.seed}\n{options}"
        ),
        caption=f"Scores: lower is better. 95% intervals: {_score_method(rules)}; win rate by Wilson. "
        f"Shared victories ({batch.shared}) count as a win for each seat sharing them.",
    )
    table.add_column("seat")
    table.add_column("agent")
    table.add_column("mean score", justify="right")
    table.add_column("95% interval", justify="right", no_wrap=True)
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% interval", justify="right", no_wrap=True)
    for s in batch.seats():
        table.add_row(
            f"P{s.seat + 1}",
            s.agent,
            *_mean(s.mean_score, s.score_low, s.score_high, 3),
            str(s.wins),
            *rate_text(s.win_rate, s.win_low, s.win_high),
        )
    con = console()
    con.print(table)
    rate = batch.decisions / batch.elapsed if batch.elapsed else 0.0
    con.print(
        f"{counted(batch.decisions, 'decision')} in {batch.elapsed:.1f} s ({rate:,.0f}/s) on {batch.jobs} "
        f"process{'es' if batch.jobs > 1 else ''}"
    )
    if record_path is not None:
        con.print(f"records: {one_line(str(record_path))}")


@app.command()
def meio(
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=4, help="2, 3 or 4.")] = 4,
    agents: AgentsOption = None,
    games: GamesOption = 1000,
    seed: SeedOption = 0,
    jobs: JobsOption = 1,
    records: RecordsOption = None,
    ace_low: Annotated[bool, typer.Option("--ace-low", help="The ace ranks below the two (default: high).")] = False,
    hearts_broken: Annotated[
        bool,
        typer.Option(
            "--hearts-broken",
            help="Hearts may not be led until a heart has been played (default: any time).",
        ),
    ] = False,
    rounds: Annotated[int, typer.Option("--rounds", min=1, max=100, help="Rounds per game.")] = 3,
    rule: RuleOption = None,
    dask: DaskOption = None,
    json: JsonOption = False,
) -> None:
    """Simulate games of Meio: mean score and win rate per seat, with 95% intervals.

    Example: cardbase sim meio --players 3 --agents search,heuristic,random --games 1000 --jobs 2
    """
    from cardbase.errors import UsageError

    if players not in (2, 3, 4):
        raise UsageError(f"Meio is for 2, 3 or 4 players, not {players}")
    names = parse_agents(agents, players, ["search", "heuristic", "random", "random"])
    flags = {"players": players, "ace_high": not ace_low, "hearts_anytime": not hearts_broken, "rounds": rounds}
    options = rules_options("meio", flags, rule)
    run_sim("meio", options, names, games, seed, jobs, json, records, dask)


# --- Méa: deck against deck ------------------------------------------------------

MeaDeckOption = Annotated[
    Path,
    typer.Option(
        "--deck",
        "-d",
        shell_complete=complete.decks,
        help="Your deck: a file or a database deck's name (db:NAME).",
        callback=checked_path,
    ),
]
MeaVsOption = Annotated[
    Path,
    typer.Option(
        "--vs",
        shell_complete=complete.decks,
        help="The opposing deck: a file or a database deck's name (db:NAME).",
        callback=checked_path,
    ),
]


LayoutOption = Annotated[
    str,
    typer.Option(
        "--layout",
        shell_complete=complete.rule_option("layout"),
        help="Starting tiles: checkerboard (blue corners and centre), sides, or a grid like BYB/YBY/BYB.",
    ),
]
DiagonalOption = Annotated[bool, typer.Option("--diagonal", help="Tiles touching at a corner are adjacent too.")]
AttackAllOption = Annotated[
    bool, typer.Option("--attack-all", help="An attack must be able to kill every monster on the tile (default: one).")
]
MoveInFirstOption = Annotated[
    bool,
    typer.Option("--move-in-first", help="After a combined kill only the first attacker moves in (default: both)."),
]
TurnStartEliminationOption = Annotated[
    bool,
    typer.Option(
        "--turn-start-elimination",
        help="A player without tiles loses at the start of their turn, after the flip (default: at once).",
    ),
]
ManaAfterFlipOption = Annotated[
    bool, typer.Option("--mana-after-flip", help="Count mana after the start-of-turn flip (default: before).")
]
MaxTurnsOption = Annotated[
    int, typer.Option("--max-turns", min=1, max=10_000, help="Turns (both players') after which more tiles wins.")
]


@app.command()
def mea(
    deck: MeaDeckOption,
    vs: MeaVsOption,
    agents: Annotated[
        str,
        typer.Option(
            "--agents",
            "-a",
            shell_complete=complete.agents,
            help="Agent for --deck and for --vs, comma-separated: random, heuristic, search, ismcts; with options, "
            "e.g. heuristic:opening=2-7 (its opening draw drawn from 2..7), search:samples=12.",
        ),
    ] = "heuristic,heuristic",
    games: GamesOption = 1000,
    seed: SeedOption = 0,
    jobs: JobsOption = 1,
    records: RecordsOption = None,
    swap_agents: Annotated[
        bool, typer.Option("--swap-agents", help="Also let each agent play each deck (to compare agents).")
    ] = False,
    drop_unknown: Annotated[
        bool,
        typer.Option("--drop-unknown", help="Leave out cards with unknown stats (default: refuse the deck)."),
    ] = False,
    formats: FormatsOption = None,
    layout: LayoutOption = "checkerboard",
    diagonal: DiagonalOption = False,
    attack_all: AttackAllOption = False,
    move_in_first: MoveInFirstOption = False,
    turn_start_elimination: TurnStartEliminationOption = False,
    mana_after_flip: ManaAfterFlipOption = False,
    max_turns: MaxTurnsOption = 200,
    rule: RuleOption = None,
    dask: DaskOption = None,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Pit two Méa decks against each other: win rates with 95% intervals (each deck on both
    seats), game length and how games ended (the best opening size: cardbase lab opening).

    Example: cardbase sim mea --deck examples/decks/mea-goblin-rush.txt --vs examples/decks/mea-tile-control.txt

    Example: cardbase sim mea -d examples/decks/mea-goblin-rush.txt --vs examples/decks/mea-goblin-rush.txt
    --agents search,heuristic --games 100 --seed 1 --jobs 2
    """
    from cardbase.decks.service import load_house
    from cardbase.errors import UsageError
    from cardbase.sim.mea import prepare, run_mea_batch
    from cardbase.sim.runner import backend

    names = [a.strip() for a in agents.split(",")]
    if len(names) != 2:
        raise UsageError(f"--agents names one agent for --deck and one for --vs, not {quoted(agents)}")
    options = rules_options(
        "mea",
        mea_options(layout, diagonal, attack_all, move_in_first, turn_start_elimination, mana_after_flip, max_turns),
        rule,
    )
    loaded = prepare(db, (deck, vs), names, options, drop_unknown, load_house(formats, db))
    loaded_notes(*loaded)
    stems = [p.stem.removeprefix("mea-") for p in (deck, vs)]
    filename = f"mea-{stems[0]}-vs-{stems[1]}-seed{seed}.jsonl"
    with (
        backend(jobs, dask, note) as mapper,
        _batch_output("Méa", games, records, filename) as (on_progress, on_records, record_path),
    ):
        batch = run_mea_batch(
            loaded,
            (names[0], names[1]),
            options,
            games,
            seed,
            jobs=mapper.workers if mapper else 1,
            swap_agents=swap_agents,
            on_progress=on_progress,
            on_records=on_records,
            backend=mapper,
        )
    data = batch.report()
    if record_path is not None:
        data["records"] = str(record_path)
    if json:
        print_json(data)
        return
    _print_mea(data)


@contextmanager
def _batch_output(
    title: str, games: int, records: Path | None, filename: str
) -> Iterator[tuple[Callable[[int], None], Callable[[Sequence[str]], None] | None, Path | None]]:
    """A progress bar and, with ``--records``, the JSON Lines file a batch writes its games to.

    Yields ``(on_progress, on_records, record_path)``; ``on_records`` is None without ``--records``.
    The records go to a temporary file beside the one named (``textfiles.output_file``), which takes
    its place when the batch ends or is interrupted after a game was written (the games so far, each
    whole), so a batch that fails leaves the file that was there; the bar is stopped however it ends.
    """
    from cardbase import interrupts
    from cardbase.errors import Interrupted
    from cardbase.errors import shown as shown_path
    from cardbase.textfiles import make_folder, output_file, output_folder_target

    interrupted = False
    done = 0
    record_path = None
    with ExitStack() as stack:
        out = None
        if records is not None:  # checked, and the file opened, before the first game
            folder = output_folder_target(records, "records")
            make_folder(folder, shown_path(str(records)))
            record_path = records / filename
            temporary = stack.enter_context(output_file(folder / filename, "records"))
            out = stack.enter_context(temporary.open("w", encoding="utf-8"))

        written = 0

        def on_records(lines: Sequence[str]) -> None:
            nonlocal written
            assert out is not None
            with interrupts.deferred():  # a game's lines whole, or not at all
                out.write("\n".join(lines) + "\n")
                written += 1

        _, advance, stop = _progress(title, games)

        def on_progress(k: int) -> None:
            nonlocal done
            done += k
            advance(k)

        try:
            yield on_progress, (on_records if out is not None else None), record_path
        except KeyboardInterrupt:
            if not written:  # raised inside the stack: the file that was there is kept
                raise Interrupted(f"{done} of {counted(games, 'game')} had finished") from None
            interrupted = True  # the records so far take the file's place as the stack closes
        finally:
            stop()
    if interrupted:
        saved = f"; the records written so far are in {record_path}" if record_path is not None else ""
        raise Interrupted(f"{done} of {counted(games, 'game')} had finished{saved}")


def _progress(title: str, total: int) -> tuple[Any, Callable[[int], None], Callable[[], None]]:
    """A progress bar on stderr that starts with the first finished game (none where stderr is not a
    terminal: :func:`cardbase.terminal.progress_console`)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from cardbase.terminal import progress_console

    err = progress_console()
    if err is None:
        return None, lambda k: None, lambda: None
    progress = Progress(
        TextColumn("{task.description}", style="progress.description", markup=False),  # a deck name is not markup
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    )
    task = progress.add_task(f"{title} ×{total}", total=total)
    started = False

    def advance(k: int) -> None:
        nonlocal started
        if not started:
            progress.start()
            started = True
        progress.advance(task, k)

    def stop() -> None:
        if started:
            progress.stop()

    return progress, advance, stop


def _pct(rate: float, interval: list[float]) -> tuple[str, str]:
    return rate_text(rate, *interval) if rate == rate else ("—", "—")  # NaN: no games


def _print_mea(data: dict[str, Any]) -> None:
    from rich.table import Table

    con = console()
    decks = data["decks"]
    who = " vs ".join(f"{d['deck']} ({d['agent']})" for d in decks)
    firsts = [d["going_first"]["games"] for d in decks]
    first = (  # an odd count cannot be halved: say who went first once more (one game: only one did)
        "each deck goes first in half of them"
        if firsts[0] == firsts[1]
        else f"{decks[0]['deck']} goes first in {firsts[0]}, {decks[1]['deck']} in {firsts[1]}"
    )
    games = data["games"]
    table = Table(
        title=f"Méa: {who}\n{counted(games, 'game')}, seed {data['seed']}; {first}\nThis {data['comparison']}.",
        caption="Win rates with 95% intervals (Wilson). A shared result (a tie) is a win for neither.",
    )
    for col in ("deck", "agent", "wins", "win rate (95%)", "1st", "2nd"):
        table.add_column(col, justify="left" if col in ("deck", "agent") else "right")
    for d in decks:
        o = d["overall"]
        rate, interval = _pct(o["win_rate"], o["win_rate_95"])
        table.add_row(
            d["deck"],
            d["agent"],
            f"{o['wins']}/{o['games']}",
            f"{rate} ({interval})",
            "\n".join(_pct(d["going_first"]["win_rate"], d["going_first"]["win_rate_95"])),
            "\n".join(_pct(d["going_second"]["win_rate"], d["going_second"]["win_rate_95"])),
        )
    con.print(table)
    con.print(FIRST_SECOND)
    if data["agents"]:
        line = "; ".join(
            "{}: {} ({}) of {}".format(name, *_pct(a["win_rate"], a["win_rate_95"]), a["games"])
            for name, a in data["agents"].items()
        )
        how = (
            "each with each deck in equal shares"
            if data["swap_agents"]
            else "on the same deck"
            if data["compares"] == "agents"
            else "each with its own deck (their rates mix in the decks')"
        )
        con.print(f"By agent, {how}: {line}")
    t = data["turns"]
    con.print(
        "Game length: {} turns (95% {}), ".format(*_mean(t["mean"], t["mean_95"][0], t["mean_95"][1], 1))
        + f"median {t['median']:g}, shortest {t['min']:.0f}, longest {t['max']:.0f} (turns of both players)"
    )
    ends = Table(title="How the games ended")
    for col in ("ending", "games", "share (95%)", "losers"):
        ends.add_column(col, justify="right" if col in ("games", "share") else "left")
    for code, e in data["endings"].items():
        losers = ", ".join(f"{k} {v}" for k, v in e["lost_by"].items()) or "—"
        share = "{} ({})".format(*rate_text(e["share"], *wilson(e["games"], games)))
        ends.add_row(f"{code}: {e['what']}", str(e["games"]), share, losers)
    con.print(ends)
    con.print("To find the opening size that suits a deck: cardbase lab opening DECK --vs DECK.")
    for line in data["notes"]:
        con.print(f"Note: {line}")
    speed = data["decisions"] / data["elapsed_seconds"] if data["elapsed_seconds"] else 0.0
    con.print(f"{counted(data['decisions'], 'decision')} in {data['elapsed_seconds']:.1f} s ({speed:,.0f}/s)")
    if data.get("records"):
        con.print(f"records: {one_line(str(data['records']))}")


# --- Meikyu Kingdom ----------------------------------------------------------------

AssumeOption = Annotated[
    str | None,
    typer.Option(
        "--assume",
        shell_complete=complete.profiles,
        help="Take the values the catalog lacks from an assumption profile: 'default' (shipped, documented) or "
        "your own JSON file. Without it, a catalog missing values is refused with the list of what is missing.",
        show_default=False,
    ),
]
FarmOption = Annotated[
    str,
    typer.Option(
        "--farm",
        shell_complete=complete.rule_option("farm"),
        help="The Farm's '+1 Capacity': points (+1 point) or lands (hold 6 lands).",
    ),
]
TargetOption = Annotated[
    str,
    typer.Option(
        "--aggression-target",
        shell_complete=complete.rule_option("aggression_target"),
        help="Who picks the land at stake: attacker (names it) or defender (gives one).",
    ),
]
MapRoomOption = Annotated[
    str,
    typer.Option(
        "--map-room",
        shell_complete=complete.rule_option("map_room"),
        help="The Map's extra room after the turn: stays (face up) or discarded.",
    ),
]


def meikyu_readings(farm: str, aggression_target: str, map_room: str) -> dict[str, str]:
    """The readings of unclear Meikyu effects, as rules options (see docs/rules/meikyu.md)."""
    return {"farm": farm, "aggression_target": aggression_target, "map_room": map_room}


@app.command()
def meikyu(
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=5, help="2 to 5.")] = 4,
    agents: AgentsOption = None,
    games: GamesOption = 1000,
    seed: SeedOption = 0,
    assume: AssumeOption = None,
    jobs: JobsOption = 1,
    records: RecordsOption = None,
    farm: FarmOption = "points",
    aggression_target: TargetOption = "attacker",
    map_room: MapRoomOption = "stays",
    turn_limit: Annotated[
        int,
        typer.Option(
            "--turn-limit", min=1, max=10_000, help="Stop a game after this many turns (a safeguard, not a rule)."
        ),
    ] = 1000,
    rule: RuleOption = None,
    dask: DaskOption = None,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Simulate Meikyu Kingdom: win rates with 95% intervals, game length, how games ended, points by land.

    The rulebook gives no land points and no Bravery or Wits: card values come from the catalog
    (import yours with cardbase catalog import). Without --assume, missing values are listed and
    nothing runs; with it, the report says how many values were assumed, and which.

    Example: cardbase sim meikyu --players 3 --games 200 --assume default

    Example: cardbase sim meikyu --players 3 --agents search,heuristic,random --games 1000 --assume default --jobs 2
    """
    from cardbase.errors import UsageError
    from cardbase.sim.meikyu import batch_data, prepare
    from cardbase.sim.runner import backend, run_batch

    if players not in (2, 3, 4, 5):
        raise UsageError(f"Meikyu Kingdom is for 2 to 5 players, not {players}")
    names = parse_agents(agents, players, ["search", "heuristic", "random", "random", "random"])
    readings = rules_options(
        "meikyu", {**meikyu_readings(farm, aggression_target, map_room), "turn_limit": turn_limit}, rule
    )
    rules = prepare(db, assume, players, names, **readings)
    filename = f"meikyu-{players}p-seed{seed}.jsonl"
    with (
        backend(jobs, dask, note) as mapper,
        _batch_output("Meikyu Kingdom", games, records, filename) as (on_progress, on_records, record_path),
    ):
        batch = run_batch(
            "meikyu", rules, names, games, seed=seed, on_progress=on_progress, on_records=on_records, backend=mapper
        )
    data = batch_data(batch, record_path)
    if json:
        print_json(data)
        return
    _print_meikyu(batch, data, record_path)


_END_LABELS = {
    "points": "a kingdom reached the goal",
    "rooms": "no rooms left to conquer",
    "turn limit": "turn limit (not in the rulebook)",
}


def _meikyu_renderables(batch: BatchResult, data: dict[str, Any]) -> list[RenderableType]:
    """Text and tables for a terminal, after the win-rate table."""
    from rich.table import Table

    from cardbase.games.meikyu.engine import MeikyuRules
    from cardbase.sim.meikyu import assumed_lines

    out: list[RenderableType] = []
    length = data["game_length_turns"]
    out.append(
        "Game length: {} turns on average (95% interval {}); ".format(
            *_mean(length["mean"], length["mean_95"][0], length["mean_95"][1], 1)
        )
        + f"shortest {length['min']}, median {length['median']:g}, longest {length['max']}."
    )
    games = batch.games
    ended = ", ".join(
        "{}: {} ({}, 95% Wilson interval {})".format(_END_LABELS.get(k, k), v, *rate_text(v / games, *wilson(v, games)))
        for k, v in data["ended"].items()
    )
    out.append(f"How games ended: {ended}.")
    table = Table(
        title="Points by land (kingdoms at the end of each game)",
        caption="(assumed): the land's points come from the assumption profile (listed below)."
        if any(row["assumed"] for row in data["points_by_land"])
        else None,
    )
    for col in ("land", "held", "points", "per game (95%)", "in winners' kingdoms"):
        table.add_column(col, justify="left" if col == "land" else "right")
    for row in data["points_by_land"][:40]:
        low_end, high_end = (math.inf if x is None else x for x in row["points_per_game_95"])
        per_game, low, high = shown(row["points_per_game"], low_end, high_end, scale=1.0)
        table.add_row(
            row["land"] + (" (assumed)" if row["assumed"] else ""),
            str(row["held_at_end"]),
            str(row["points_at_end"]),
            f"{per_game} ({low}–{high})",
            str(row["in_winning_kingdoms"]),
        )
    out.append(table)
    if data["refugees_at_end"]:
        out.append(f"Refugees in kingdoms at the end: {data['refugees_at_end']} (1 point each).")
    rules = batch.rules
    assert isinstance(rules, MeikyuRules)
    out.extend(assumed_lines(rules.pool))
    return out


def _print_meikyu(batch: BatchResult, data: dict[str, Any], record_path: Path | None) -> None:
    """The terminal report of a batch: win rates, then the Meikyu facts."""
    from rich.table import Table

    rules = batch.rules
    from cardbase.sim.wording import rules_in_words

    readings = rules_in_words("meikyu", rules.to_options())
    table = Table(
        title=(
            f"Meikyu Kingdom: {counted(batch.games, 'game')}, {counted(rules.players, 'player')}, seed "
            f"{batch.seed}\n{readings}"
        ),
        caption="Score: a kingdom's points at the end (higher is better). "
        f"95% intervals: {_score_method(rules)}; "
        f"win rate by Wilson. Shared victories ({batch.shared}) count as a win for each seat sharing them.",
    )
    for col in ("seat", "agent", "mean points", "95% interval", "wins", "win rate", "95% interval"):
        # (the intervals stay whole on an 80-column terminal: the headings wrap instead)
        table.add_column(col, justify="left" if col in ("seat", "agent") else "right", no_wrap=col == "95% interval")
    for s in batch.seats():
        table.add_row(
            f"P{s.seat + 1}",
            s.agent,
            *_mean(s.mean_score, s.score_low, s.score_high, 2),
            str(s.wins),
            *rate_text(s.win_rate, s.win_low, s.win_high),
        )
    con = console()
    con.print(table)
    for item in _meikyu_renderables(batch, data["meikyu"]):
        con.print(item)
    rate = batch.decisions / batch.elapsed if batch.elapsed else 0.0
    con.print(
        f"{counted(batch.decisions, 'decision')} in {batch.elapsed:.1f} s ({rate:,.0f}/s) on {batch.jobs} "
        f"process{'es' if batch.jobs > 1 else ''}"
    )
    if record_path is not None:
        con.print(f"records: {one_line(str(record_path))}")
