"""``cardbase lab``: decks judged by simulation (parse, call :mod:`cardbase.lab`, format)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Protocol, TypeVar

import typer

from cardbase.cli import complete
from cardbase.cli.common import (
    FIRST_SECOND,
    MAX_SEED,
    DaskOption,
    DbOption,
    FormatsOption,
    JsonOption,
    Number,
    checked_path,
    console,
    loaded_notes,
    note,
    one_line,
    print_json,
)
from cardbase.errors import counted, plural
from cardbase.stats import shown

if TYPE_CHECKING:
    from cardbase.lab.common import Difference, Rate
    from cardbase.sim.mea import LoadedDeck
    from cardbase.sim.runner import ChunkMapper


class _Study(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


S = TypeVar("S", bound=_Study)
"""A study's result."""

app = typer.Typer(
    help="Judge decks by simulation: gauntlets, per-card figures, opening size, Meio splits, Meikyu cards.\n\n"
    "Example: cardbase lab gauntlet examples/decks/mea-goblin-rush.txt --field examples/decks/mea-tile-control.txt",
    no_args_is_help=True,
)

MAX_LAB_GAMES = 100_000
"""Games per match-up (or per opening size); more is hours, better run in shards."""
MAX_JOBS = 64

GamesOption = Annotated[
    int, typer.Option("--games", "-g", min=2, max=MAX_LAB_GAMES, help="Games per match-up (each deck first in half).")
]
SeedOption = Annotated[int, typer.Option("--seed", "-s", min=0, max=MAX_SEED, help="Seed of the whole run.")]
JobsOption = Annotated[
    int | None,
    typer.Option(
        "--jobs",
        "-j",
        min=1,
        max=MAX_JOBS,
        help="Local processes, or Dask LocalCluster workers (default: the machine's cores); results do not "
        "depend on it.",
        show_default=False,
    ),
]
PlotOption = Annotated[
    Path | None,
    typer.Option(
        "--plot", help="Also draw the figures with their intervals (.png, .pdf or .svg).", callback=checked_path
    ),
]
RuleOption = Annotated[
    list[str] | None,
    typer.Option(
        "--rule",
        "-r",
        shell_complete=complete.rules,
        help="Any rules option of the game as NAME=VALUE, repeatable (see docs/rules/<game>.md).",
        show_default=False,
    ),
]
DropOption = Annotated[
    bool, typer.Option("--drop-unknown", help="Leave out cards with unknown stats (default: refuse the deck).")
]
MaxTurnsOption = Annotated[
    int, typer.Option("--max-turns", min=1, max=10_000, help="Turns (both players') after which more tiles wins.")
]


@dataclass(frozen=True)
class _StudyOptions:
    """The options every Méa study takes, as given."""

    max_turns: int
    rule: list[str] | None
    drop_unknown: bool
    formats: Path | None
    db: str | None
    jobs: int | None
    dask: str | None
    plot: Path | None
    json: bool


def _run_study(
    label: str,
    paths: list[Path],
    names: tuple[str, str],
    total: int,
    run: Callable[[list[LoadedDeck], dict[str, Any], ChunkMapper | None, Callable[[int], None]], S],
    draw: Callable[[S, Path], None],
    o: _StudyOptions,
) -> S | None:
    """A Méa study's run: the decks read and checked, the games on the backend with a progress bar,
    the plot, and the JSON printed (then ``None``: nothing more to show), else the result."""
    from cardbase.cli.sim import _batch_output
    from cardbase.decks.service import load_house
    from cardbase.lab.common import backend, mea_study_options
    from cardbase.lab.gauntlet import load_decks

    options = mea_study_options(o.max_turns, o.rule)
    loaded = load_decks(o.db, paths, names, options, o.drop_unknown, load_house(o.formats, o.db))
    loaded_notes(*loaded)
    if o.plot is not None:
        from cardbase.lab.plot import check_plot_path

        check_plot_path(o.plot)
    with backend(o.jobs, o.dask, note) as mapper, _batch_output(label, total, None, "") as (on_progress, _, _):
        result = run(loaded, options, mapper, on_progress)
    if o.plot is not None:
        draw(result, o.plot)
    if o.json:
        print_json({**result.to_dict(), "rules": options})  # the options it was judged under
        return None
    return result


def _pct(r: Rate) -> tuple[str, str]:
    """A rate and its 95% interval, each to the digits the interval gives (``—`` for no games)."""
    return r.shown()


def _stacked(r: Rate) -> str:
    """A rate above its 95% interval (two short lines: a narrow terminal never splits a number)."""
    rate, interval = _pct(r)
    return "—" if r.games == 0 else f"{rate}\n{interval}"


def _improvement(d: Difference) -> str:
    """A difference of rates in points (signed) above its interval, to the digits the interval gives."""
    value, low, high = d.shown()
    return "—" if value == "—" else f"{value}\n{low} to {high}"


@app.command()
def gauntlet(
    deck: Annotated[
        Path, typer.Argument(help="The Méa deck to judge.", shell_complete=complete.decks, callback=checked_path)
    ],
    field: Annotated[
        list[Path],
        typer.Option(
            "--field",
            "-f",
            shell_complete=complete.decks,
            help="A deck to play against (repeatable).",
            show_default=False,
            callback=checked_path,
        ),
    ],
    games: GamesOption = 200,
    agents: Annotated[
        str,
        typer.Option(
            "--agents",
            "-a",
            shell_complete=complete.agents,
            help="Agent for both sides, or DECK's,FIELD's (random, heuristic, search, ismcts).",
        ),
    ] = "heuristic",
    seed: SeedOption = 0,
    jobs: JobsOption = None,
    dask: DaskOption = None,
    min_games: Annotated[
        int,
        typer.Option("--min-games", min=1, max=MAX_LAB_GAMES, help="Mark a card drawn or not drawn in fewer games."),
    ] = 30,
    plot: PlotOption = None,
    max_turns: MaxTurnsOption = 200,
    rule: RuleOption = None,
    drop_unknown: DropOption = False,
    formats: FormatsOption = None,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Méa: DECK against each --field deck on both seats — win rate per match-up and overall with 95%
    intervals, and per card of DECK the 17lands figures (games in hand, win rate when drawn and not
    drawn, improvement when drawn, opening-hand win rate), each with an interval.

    Example: cardbase lab gauntlet examples/decks/mea-goblin-rush.txt
    --field examples/decks/mea-tile-control.txt --games 400 --seed 1
    """
    from cardbase.lab.gauntlet import run_gauntlet, split_agents
    from cardbase.lab.plot import plot_gauntlet

    names = split_agents(agents)
    result = _run_study(
        "gauntlet",
        [deck, *field],
        names,
        games * len(field),
        lambda loaded, options, mapper, on_progress: run_gauntlet(
            loaded, names, options, games, seed, mapper, min_games, on_progress
        ),
        plot_gauntlet,
        _StudyOptions(max_turns, rule, drop_unknown, formats, db, jobs, dask, plot, json),
    )
    if result is None:
        return
    data = result.to_dict()
    from rich.table import Table

    con = console()
    table = Table(
        title=f"Gauntlet: {result.deck} ({names[0]}) against the field ({names[1]})\n"
        f"{counted(games, 'game')} per match-up, each deck first in half; seed {seed}",
        caption="Win rates with 95% Wilson intervals; a shared result is a win for neither.",
    )
    for col in ("opponent", "wins", "win rate", "95%", "1st", "2nd"):
        table.add_column(col, justify="left" if col == "opponent" else "right")
    for m in result.matchups:
        rate, ci = _pct(m.result)
        table.add_row(
            m.opponent,
            f"{m.result.wins}/{m.result.games}",
            rate,
            ci,
            _stacked(m.going_first),
            _stacked(m.going_second),
        )
    rate, ci = _pct(result.overall)
    table.add_row("overall", f"{result.overall.wins}/{result.overall.games}", rate, ci, "", "")
    con.print(table)
    con.print(FIRST_SECOND)
    cards = Table(
        title=f"Cards of {result.deck} (sorted by improvement when drawn; * too few games, last)",
        caption="Each figure with its 95% interval under it (Wilson; rounded outward, to the digits the interval "
        "gives). in hand: drawn "
        "at any point (the opening included); IWD: improvement when drawn, win rate in hand minus not drawn, in "
        f"points (Newcombe's interval); * fewer than {counted(min_games, 'game')} drawn or not drawn.",
    )
    for col in ("card", "games\nin hand", "win\nin hand", "not\ndrawn", "IWD", "in\nopening"):
        # each figure above its interval, in whole points: short lines that never split, down to 80 columns
        if col == "card":
            cards.add_column(col, overflow="fold")
        else:
            cards.add_column(col, justify="right", no_wrap=True)
    for c in result.cards:
        cards.add_row(
            c.name + (" *" if c.too_few else ""),
            str(c.in_hand.games),
            _stacked(c.in_hand),
            _stacked(c.not_drawn),
            _improvement(c.improvement),
            _stacked(c.opening),
        )
    con.print(cards)
    _footer(data, plot)


def _footer(data: dict[str, Any], plot: Path | None) -> None:
    con = console()
    for line in data["notes"]:
        con.print(f"Note: {line}")
    con.print(
        f"{data['elapsed_seconds']:.1f} s on {counted(data['workers'], 'worker')}; "
        f"cardbase {data['version']} at {data['git_revision'] or 'unknown revision'}"
    )
    if plot is not None:
        con.print(f"plot: {one_line(str(plot))}", soft_wrap=True)  # a path is copied whole: never wrapped


@app.command()
def opening(
    deck: Annotated[
        Path,
        typer.Argument(
            help="The Méa deck whose opening size is studied.", shell_complete=complete.decks, callback=checked_path
        ),
    ],
    vs: Annotated[
        Path, typer.Option("--vs", shell_complete=complete.decks, help="The opposing deck.", callback=checked_path)
    ],
    games: Annotated[
        int, typer.Option("--games", "-g", min=2, max=MAX_LAB_GAMES, help="Games per opening size (1 to 10).")
    ] = 200,
    agents: Annotated[
        str,
        typer.Option(
            "--agents",
            "-a",
            shell_complete=complete.agents,
            help="The agent that plays DECK with its opening forced (heuristic or search, with options), and "
            "optionally the opponent's after a comma.",
        ),
    ] = "heuristic",
    seed: SeedOption = 0,
    jobs: JobsOption = None,
    dask: DaskOption = None,
    plot: PlotOption = None,
    max_turns: MaxTurnsOption = 200,
    rule: RuleOption = None,
    drop_unknown: DropOption = False,
    formats: FormatsOption = None,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Méa: the best opening draw size for DECK. The same agent plays every size 1-10 (the opening
    is forced, the rest of the play is the agent's) against --vs; win rate per size with 95%
    intervals, and the best size with its margin over the next.

    Example: cardbase lab opening examples/decks/mea-goblin-rush.txt
    --vs examples/decks/mea-tile-control.txt --games 200
    """
    from cardbase.lab.gauntlet import split_agents
    from cardbase.lab.opening import SIZES, check_agent, run_opening
    from cardbase.lab.plot import plot_opening

    names = split_agents(agents)
    check_agent(names[0])
    study = _run_study(
        "opening",
        [deck, vs],
        names,
        games * len(SIZES),
        lambda loaded, options, mapper, on_progress: run_opening(
            loaded, names, options, games, seed, mapper, on_progress
        ),
        plot_opening,
        _StudyOptions(max_turns, rule, drop_unknown, formats, db, jobs, dask, plot, json),
    )
    if study is None:
        return
    data = study.to_dict()
    from rich.table import Table

    con = console()
    table = Table(
        title=f"Opening size: {study.deck} ({names[0]}, opening forced) vs {study.vs} ({names[1]})\n"
        f"{counted(games, 'game')} per size, each deck first in half; every size from the same seed {seed}",
        caption="Win rates with 95% Wilson intervals; a shared result is a win for neither.",
    )
    for col in ("opening", "wins", "win rate", "95%"):
        table.add_column(col, justify="right")
    for s in study.sizes:
        rate, ci = _pct(s.result)
        mark = " ←" if s is study.best else ""
        table.add_row(f"{s.size}{mark}", f"{s.result.wins}/{s.result.games}", rate, ci)
    con.print(table)
    con.print(study.verdict("more --games"))
    _footer(data, plot)


@app.command()
def split(
    hand: Annotated[
        Path,
        typer.Argument(
            help="A Meio hand file: 13 cards, one a line (like examples/decks/meio-hand.txt).", callback=checked_path
        ),
    ],
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=4, help="Players at the table.")],
    seconds: Annotated[
        float,
        typer.Option(
            "--seconds",
            "-t",
            parser=Number(0.5, 600.0),
            help="Time budget (every split gets at least 2 deals; when it runs out, the advice says so).",
        ),
    ] = 30.0,
    levels: Annotated[
        int | None,
        typer.Option(
            "--levels",
            min=1,
            max=12,
            help="Stop after this many halving levels (1: every split on 2 deals); within the time budget, "
            "the result then depends on the seed alone, not on the machine's speed.",
        ),
    ] = None,
    agents: Annotated[
        str,
        typer.Option(
            "--agents",
            "-a",
            shell_complete=complete.agents,
            help="The agent of every seat (yours after the split), or one per seat, yours first.",
        ),
    ] = "heuristic",
    seat: Annotated[int, typer.Option("--seat", min=1, max=4, help="Your seat; seat 1 splits first.")] = 1,
    top: Annotated[int, typer.Option("--top", min=1, max=50, help="How many splits to show.")] = 5,
    seed: SeedOption = 0,
    jobs: JobsOption = None,
    dask: DaskOption = None,
    rule: RuleOption = None,
    json: JsonOption = False,
) -> None:
    """Meio: every 7 + 6 split of a 13-card hand, scored by playing the round out on sampled deals
    (successive halving: the better half goes on to twice the deals); the best splits with their
    expected round score (lower is better) and 95% interval.

    Example: cardbase lab split examples/decks/meio-hand.txt --players 3 --levels 10 --top 3
    """
    from cardbase.errors import UsageError
    from cardbase.games.meio.masks import mask_of
    from cardbase.lab.common import backend
    from cardbase.lab.split import advise, read_hand
    from cardbase.sim.registry import game

    if seat > players:
        raise UsageError(f"--seat must be 1 to {players}, not {seat}")
    names = [a.strip() for a in agents.split(",")]
    if len(names) == 1:
        names *= players
    entry = game("meio")
    entry.check_agents(names)
    cards = read_hand(hand, players)
    from cardbase.sim.options import rules_options

    rules = entry.make_rules(rules_options("meio", {"players": players}, rule))
    if len(names) == players:  # yours first: put them in seat order
        names = names[players - seat + 1 :] + names[: players - seat + 1]
    with backend(jobs, dask, note) as mapper:
        advice = advise(rules, mask_of(cards), seat - 1, names, seconds, seed, top, mapper, max_levels=levels)
    data = {**advice.to_dict(), "rules": rules.to_options()}  # the options it was judged under
    if json:
        print_json(data)
        return
    from rich.table import Table

    con = console()
    table = Table(
        title=f"Meio split: {' '.join(advice.hand)} ({counted(players, 'player')}, seat {seat})\n"
        f"{counted(advice.candidates, 'split')}, {advice.rounds_played:,} {plural(advice.rounds_played, 'round')} "
        f"played, seed {seed}",
        caption="Expected round score |horizontal − vertical| (0–7, lower is better): the mean over fresh "
        "deals, not those the splits were chosen on, with its 95% interval (docs/rules/meio.md says how).",
    )
    for col in ("keep (7)", "set aside (6)", "deals", "expected score", "95%"):
        table.add_column(col, justify="right" if col in ("deals", "expected score", "95%") else "left")
    for s in advice.top:
        mean, low, high = shown(s.mean, s.low, s.high, scale=1.0)
        table.add_row(" ".join(s.keep), " ".join(s.aside), str(s.deals), mean, f"{low}–{high}")
    con.print(table)
    con.print(split_verdict(advice))
    how = {
        "complete": "every level done",
        "levels": f"stopped at --levels {levels}",
        "time": "stopped by the time budget",
    }[advice.stopped_by]
    checked = len(advice.top) + (1 if advice.runner_up else 0)
    con.print(
        f"{counted(advice.levels, 'halving level')} ({how}), then the best {checked} "
        f"checked on {counted(advice.top[0].deals, 'fresh deal')} each, in "
        f"{advice.elapsed:.1f} s on {counted(advice.workers, 'worker')}; "
        f"agents: {', '.join(names)}"
    )
    con.print(f"cardbase {data['version']} at {data['git_revision'] or 'unknown revision'}")


def split_verdict(advice: Any) -> str:
    """The advice in words: the clear best split, or how many cannot be told apart."""
    best = advice.top[0]
    if advice.clear:
        return (
            f"Advice: keep {' '.join(best.keep)}, set aside {' '.join(best.aside)} — clearly the best of those "
            "checked (its 95% interval is apart from the others')."
        )
    more = "" if advice.complete else " More deals (a longer --seconds, more --levels) may tell them apart."
    return (
        f"Advice: no clear best among these {advice.tied} (their 95% intervals overlap the best's): any of them "
        f"is as good as {counted(best.deals, 'deal')} can tell.{more}"
    )


@app.command()
def cards(
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=5, help="Players (2 to 5).")] = 3,
    assume: Annotated[
        str | None,
        typer.Option(
            "--assume",
            shell_complete=complete.profiles,
            help="Take the values the catalog lacks from an assumption profile: 'default' or your JSON file; "
            "without it a catalog missing values is refused with the list. Every assumed value is in the report.",
            show_default=False,
        ),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-g", min=2, max=MAX_LAB_GAMES, help="How many games.")] = 200,
    agents: Annotated[
        str | None,
        typer.Option(
            "--agents",
            "-a",
            shell_complete=complete.agents,
            help="One agent per seat, comma-separated (default: heuristic everywhere).",
            show_default=False,
        ),
    ] = None,
    seed: SeedOption = 0,
    jobs: JobsOption = None,
    dask: DaskOption = None,
    min_games: Annotated[
        int, typer.Option("--min-games", min=1, max=MAX_LAB_GAMES, help="Mark a card seen in fewer (game, seat)s.")
    ] = 30,
    plot: PlotOption = None,
    rule: RuleOption = None,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Meikyu Kingdom: which Kingdom cards (held in hand at any point) and lands (in the kingdom at
    the end) go with winning, per (game, seat), with 95% intervals; every assumed value is listed.

    Example: cardbase lab cards --players 3 --assume default --games 200 --plot exports/meikyu-cards.png
    """
    from cardbase.cli.sim import _batch_output, parse_agents
    from cardbase.lab.cards import run_cards
    from cardbase.lab.common import backend
    from cardbase.sim.meikyu import prepare, rules_summary
    from cardbase.sim.options import rules_options

    names = parse_agents(agents, players, ["heuristic"] * players)
    rules = prepare(db, assume, players, names, **rules_options("meikyu", {}, rule))
    if plot is not None:
        from cardbase.lab.plot import check_plot_path

        check_plot_path(plot)
    with backend(jobs, dask, note) as mapper, _batch_output("Meikyu cards", games, None, "") as (on_progress, _, _):
        study = run_cards(rules, names, games, seed, mapper, min_games, on_progress)
    if plot is not None:
        from cardbase.lab.plot import plot_cards

        plot_cards(study, plot)
    data = {**study.to_dict(), "rules": rules_summary(rules)}  # the options it was judged under
    if json:
        print_json(data)
        return
    from rich.table import Table

    con = console()
    for line in study.assumed:
        con.print(line)
    for title, rows, what in (
        ("Kingdom cards: win rate of the seats that held the card at some point", study.kingdom, "in hand"),
        ("Lands: win rate of the seats whose kingdom holds the land at the end", study.lands, "in kingdom"),
    ):
        table = Table(
            title=f"{title}\n{counted(games, 'game')}, {counted(players, 'player')} ({', '.join(names)}), seed {seed}",
            caption=f"95% Wilson intervals; difference in points (Newcombe); * fewer than {min_games} (game, seat)s; "
            "(assumed): some of the card's values come from the assumption profile (listed above).",
        )
        for col in ("card", "seats", f"win {what}", "without", "difference (95%)"):
            table.add_column(col, justify="left" if col == "card" else "right")
        for c in rows:
            table.add_row(
                c.name + (" (assumed)" if c.assumed else "") + (" *" if c.too_few else ""),
                str(c.with_card.games),
                "{} ({})".format(*_pct(c.with_card)),
                "{} ({})".format(*_pct(c.without)),
                "{} ({} to {})".format(*shown(c.difference.value, c.difference.low, c.difference.high, signed=True)),
            )
        con.print(table)
    _footer({**data, "notes": []}, plot)
