"""``cardbase draws``: exact opening-draw probabilities for a deck file, per-game opening reports, sample hands."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cardbase.cli import complete
from cardbase.cli.common import (
    MAX_SEED,
    DbOption,
    JsonOption,
    checked_path,
    console,
    deck_notes,
    echo,
    open_db,
    png_plot,
    print_json,
    say_done,
    warn,
)
from cardbase.errors import counted, plural, quoted
from cardbase.stats import percent, rate_text, shown

if TYPE_CHECKING:  # imported lazily at run time
    from cardbase.db.engine import Database
    from cardbase.draws.openings import Answer, Draws
    from cardbase.draws.reports import MeaReport, MeikyuReport, MeioReport, NeedsReport
    from cardbase.draws.service import Setup

NeedOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--need",
        "-n",
        shell_complete=complete.needs,
        help='At least: "COUNT QUERY", e.g. "2 t:monster cost<=3" (repeatable).',
    ),
]
AtMostOpt = Annotated[
    list[str] | None,
    typer.Option("--at-most", shell_complete=complete.needs, help='At most: "COUNT QUERY" (repeatable).'),
]
ExactlyOpt = Annotated[
    list[str] | None,
    typer.Option("--exactly", shell_complete=complete.needs, help='Exactly: "COUNT QUERY" (repeatable).'),
]


def draws(
    file: Annotated[
        Path,
        typer.Argument(
            shell_complete=complete.decks,
            help="Deck: a file (text or JSON) or a database deck's name (db:NAME picks the database deck).",
            callback=checked_path,
        ),
    ],
    need: NeedOpt = None,
    at_most: AtMostOpt = None,
    exactly: ExactlyOpt = None,
    cards: Annotated[
        int | None, typer.Option("--cards", "-c", min=0, max=1000, help="Cards seen (default: a table).")
    ] = None,
    by_turn: Annotated[
        int | None, typer.Option("--by-turn", min=1, max=100, help="A table for turns 1..T from the game's draws.")
    ] = None,
    opening: Annotated[
        int, typer.Option("--opening", min=1, max=10, help="Méa: opening hand size (your choice, 1–10).")
    ] = 5,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-p",
            min=1,
            max=5,
            help="Meikyu: players sharing the pile (default 2); Meio: players (default: the deck's).",
        ),
    ] = None,
    mana: Annotated[
        str,
        typer.Option(
            "--mana",
            shell_complete=complete.mana,
            help="Méa report: first-turn mana of the first and second player (default from the rulebook's "
            "set-up: 5 blue tiles for the first player; 4 yellow tiles + 1 for the second).",
        ),
    ] = "5,5",
    trials: Annotated[
        int | None,
        typer.Option("--trials", min=1, max=10_000_000, help="Add a Monte Carlo estimate with a 95% interval."),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", "-s", min=0, max=MAX_SEED, help="Seed of the Monte Carlo and samples.")
    ] = 0,
    sample: Annotated[int | None, typer.Option("--sample", min=1, max=100, help="Show K sample opening hands.")] = None,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Write a PNG plot of the table (matplotlib).", callback=png_plot)
    ] = None,
    game: Annotated[
        str | None,
        typer.Option("--game", "-g", shell_complete=complete.games, help="Game, when the file has no 'game:' line."),
    ] = None,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Exact chances that an opening hand has what you need; per-game opening reports; sample hands.

    Each --need (at least), --at-most or --exactly is a count and a `cards search` query over the deck.

    All the needs must hold together among the cards seen. Without --cards: a table for 1..10 cards seen.

    --by-turn T: cards seen by the game's rules (Méa: --opening, then 1 a turn; Meikyu: 4 dealt, then 1 a turn).

    Without a need: the game's opening report (Méa opening sizes, Meikyu deal and redeals, Meio hands).

    Example: cardbase draws examples/decks/mea-goblin-rush.txt --need "2 t:monster cost<=3" --need "1 t:assist" -c 6
    """
    from cardbase.db.queries import check_game
    from cardbase.draws.exact import Kind
    from cardbase.draws.reports import draw_model
    from cardbase.draws.service import load, parse_need, setup
    from cardbase.errors import UsageError

    needs = [parse_need(t, Kind.AT_LEAST) for t in need or []]
    needs += [parse_need(t, Kind.AT_MOST) for t in at_most or []]
    needs += [parse_need(t, Kind.EXACTLY) for t in exactly or []]
    if cards is not None and by_turn is not None:
        raise UsageError("give --cards or --by-turn, not both")
    if plot is not None and not needs:
        raise UsageError("--plot draws the chance of needs: give at least one --need")
    if plot is not None:
        from cardbase.textfiles import output_target

        output_target(plot, "plot")  # before the draws are worked out
    database = open_db(db)
    resolved = load(database, file, check_game(game))
    deck_notes(resolved)
    deck = setup(database, resolved, needs, resolved.source)
    deck.for_players(players)
    model = draw_model(deck, needs, opening, players)
    if sample is not None:
        _samples(deck, model, sample, seed, cards, json)
    elif not needs:
        _report(database, deck, model, mana, trials, seed, json)
    else:
        _needs(deck, model, cards, by_turn, trials, seed, plot, json)


def _interval(estimate: dict[str, Any]) -> str:
    """A Monte Carlo estimate and its 95% interval, to the digits the interval gives."""
    return "{} ({})".format(*rate_text(estimate["probability"], estimate["low"], estimate["high"]))


def _notes(deck: Setup, json: bool, extra: list[str] | None = None) -> None:
    for note in deck.notes + (extra or []):
        if json:
            warn(note)
        else:
            echo(f"note: {note}")


# --- needs ---------------------------------------------------------------------------------------


def _needs(
    deck: Setup,
    model: Draws,
    cards: int | None,
    by_turn: int | None,
    trials: int | None,
    seed: int,
    plot: Path | None,
    json: bool,
) -> None:
    from cardbase.draws.reports import deck_title, needs_report, plot_range, seen_rule

    report = needs_report(deck, model, cards, by_turn, trials, seed)
    plot_note = ""
    if plot is not None:
        from cardbase.draws.plot import plot_answers

        plot_answers(
            report.answers if not report.single else plot_range(model, report.answers),
            deck.needs,
            f"{deck.name}: opening draws\n" + deck_title(deck)[len(deck.name) + 1 :],
            plot,
            by_turn is not None,
            seen_rule(deck, model, by_turn),
            [*deck.notes, *report.notes],
        )
        plot_note = f"wrote {plot}"
    if json:
        print_json(report.as_json())
        _notes(deck, True, report.notes)
        if plot_note:
            say_done(plot_note, err=True)
        return
    _print_needs(deck, model, report, by_turn is not None, trials, seed)
    _notes(deck, False, report.notes)
    if plot_note:
        say_done(plot_note)


def _print_needs(deck: Setup, model: Draws, report: NeedsReport, by_turn: bool, trials: int | None, seed: int) -> None:
    from cardbase.draws.reports import deck_title, seen_rule

    out = console()
    rows: list[dict[str, Any]] = report.rows
    answers: list[Answer] = report.answers
    echo(deck_title(deck))
    echo(seen_rule(deck, model, 1 if by_turn else None))
    if report.single:
        row, answer = rows[0], answers[0]
        for d in row["needs"]:
            need = f"{d['kind']} {d['count']} × {d['query']}"
            echo(
                f"  {need}  ({counted(d['matching'], 'card')} {plural(d['matching'], 'matches', 'match')}): "
                f"{percent(d['probability'])}"
            )
        where = (
            f"on turn {answer.turn} ({counted(answer.seen, 'card')} seen)"
            if answer.turn
            else f"in {counted(answer.seen, 'card')} seen"
        )
        label = "all needs together" if len(deck.needs) > 1 else "the need"
        echo(f"{label} {where}: {row['probability']:.6f} = {percent(row['probability'])} (exact)")
        if trials:
            mc = row["monte_carlo"]
            estimate, interval = rate_text(mc["probability"], mc["low"], mc["high"])
            echo(f"Monte Carlo: {estimate} (95% Wilson interval {interval}, {counted(trials, 'hand')}, seed {seed})")
        return
    from rich.table import Table

    table = Table(
        caption="exact; each need alone, then all together" + (f"; Monte Carlo seed {seed}" if trials else "")
    )
    if by_turn:
        table.add_column("turn", justify="right")
    table.add_column("cards seen", justify="right")
    for i, wanted in enumerate(deck.needs):
        table.add_column(f"{wanted}\n({deck.matching[i]} match)", justify="right")
    if len(deck.needs) > 1:
        table.add_column("all together", justify="right")
    if trials:
        table.add_column(f"Monte Carlo ({trials})\n95% interval", justify="right")
    for row, answer in zip(rows, answers, strict=True):
        cells = [str(answer.turn)] if by_turn else []
        cells.append(str(answer.seen))
        cells += [percent(d["probability"]) for d in row["needs"]]
        if len(deck.needs) > 1:
            cells.append(percent(row["probability"]))
        if trials:
            mc = row["monte_carlo"]
            cells.append(_interval(mc))
        table.add_row(*cells)
    out.print(table)


# --- sample hands ---------------------------------------------------------------------------------


def _samples(deck: Setup, model: Draws, hands: int, seed: int, cards: int | None, json: bool) -> None:
    from cardbase.draws.reports import deck_title, sample_report

    samples = sample_report(deck, model, hands, seed, cards)
    if json:
        print_json(samples.as_dict())
        _notes(deck, True)
        return
    echo(f"{deck_title(deck)}: {samples.what}; {counted(hands, 'sample')}, seed {seed}")
    for k, hand in enumerate(samples.hands, 1):
        extra = ""
        if hand.redeals:
            extra += f"  (redealt {hand.redeals}×)"
        if hand.meets_needs is not None:
            extra += "  ✓ meets the needs" if hand.meets_needs else "  ✗ misses a need"
        echo(f"{k:>3}. {', '.join(hand.cards)}{extra}")
        if hand.split is not None:
            echo(f"     {hand.split.line()}")
    _notes(deck, False)


# --- per-game opening reports --------------------------------------------------------------------


def _report(
    database: Database, deck: Setup, model: Draws, mana: str, trials: int | None, seed: int, json: bool
) -> None:
    from cardbase.draws.openings import MeikyuDraws
    from cardbase.draws.reports import mea_report, meikyu_report, meio_report

    if trials and deck.game != "meikyu":
        warn("--trials: the report is exact throughout; give --need to cross-check needs by Monte Carlo")
    if deck.game == "mea":
        mea = mea_report(database, deck, parse_mana(mana))
        if json:
            print_json(mea.as_dict())
            _notes(deck, True)
            return
        _print_mea(deck, mea)
    elif isinstance(model, MeikyuDraws):
        meikyu = meikyu_report(deck, model, trials, seed)
        if json:
            print_json(meikyu.as_dict())
            _notes(deck, True)
            return
        _print_meikyu(deck, meikyu)
    else:
        meio = meio_report(deck)
        if json:
            print_json(meio.as_dict())
            _notes(deck, True)
            return
        _print_meio(deck, meio)
    _notes(deck, False)


def parse_mana(text: str) -> list[int]:
    from cardbase.errors import UsageError

    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise UsageError(f"--mana {quoted(text)}: give whole numbers, e.g. 3,4") from None
    if not values or len(values) > 10 or any(not 0 <= v <= 99 for v in values):
        raise UsageError(f"--mana {quoted(text)}: give one or two whole numbers from 0 to 99, e.g. 3,4")
    return values


def _print_mea(deck: Setup, report: MeaReport) -> None:
    from rich.table import Table

    from cardbase.draws.reports import deck_title

    out = console()
    echo(deck_title(deck) + ": opening hands")
    echo("Draw 1–10 opening cards (11 or more in hand loses), then at least 1 at the end of each turn.")
    table = Table(caption="exact; castable: matches t:monster cost<=MANA")
    table.add_column("opening", justify="right")
    for seat, m in zip(report.seats, report.mana, strict=False):
        table.add_column(f"no monster castable\nwith {m} mana ({seat})", justify="right")
    for r in report.openings:
        table.add_row(str(r.opening), *[percent(float(r.no_castable[m])) for m in report.mana])
    out.print(table)
    castable = report.castable
    echo(
        f"{counted(report.monsters, 'monster')}; castable with "
        + ", ".join(f"{m} mana: {castable[m]}" for m in sorted(castable))
        + (f"; {report.unknown_cost} of unknown cost, counted as not castable" if report.unknown_cost else "")
    )
    echo(
        "First-turn mana is the opponent's tiles + your monsters, at least 3: on the rulebook's board the first "
        "player (yellow) counts 5 blue tiles, the second (blue) 4 yellow tiles + 1 for going second. "
        "Other boards: --mana A,B."
    )


def _print_meikyu(deck: Setup, report: MeikyuReport) -> None:
    from rich.table import Table

    from cardbase.draws.openings import MEIKYU_DEAL
    from cardbase.draws.reports import deck_title

    deal, sim, runs, seed = report.deal, report.simulated, report.runs, report.seed
    out = console()
    echo(f"{deck_title(deck)}: the deal, {counted(deal.players, 'player')}, {deal.open_cards} OPEN cards")
    echo(
        "4 cards each; a player dealt an OPEN card returns their hand, the pile is shuffled and they draw 4 again, "
        "until no player holds one."
    )
    echo(
        f"you (one given player) are dealt an OPEN card at the first deal: "
        f"{percent(float(deal.player_redeals))} (exact)"
    )
    echo(
        f"at least one of the {counted(deal.players, 'player')} is, so the first deal needs a redeal: "
        f"{percent(float(deal.deal_redeals))} (exact)"
    )
    redeals, low, high = shown(sim.redeals_mean, *sim.redeals_95, scale=1.0)
    any_redeal, any_interval = rate_text(sim.any_redeal.p, *sim.any_redeal.interval)
    echo(
        f"redeals per deal: mean {redeals} (95% interval {low}–{high}; Monte Carlo, {counted(runs, 'deal')}, "
        f"seed {seed}; at least one: {any_redeal}, 95% Wilson interval {any_interval})"
    )
    plain = deal.kingdom - deal.open_cards
    table = Table(caption=f"exact: after redeals a hand is 4 uniform cards of the {plain} non-OPEN cards")
    table.add_column("cards of the type in the opening hand")
    for k in range(MEIKYU_DEAL + 1):
        table.add_column(str(k), justify="right")
    table.add_column("mean", justify="right")
    for t, pmf in deal.by_type.items():
        mean = sum(k * p for k, p in enumerate(pmf))
        table.add_row(t, *[percent(float(p)) for p in pmf], f"{float(mean):.2f}")
    out.print(table)
    echo(f"no character in the opening hand (a quest needs one): {percent(report.no_character)} (exact)")


def _print_meio(deck: Setup, report: MeioReport) -> None:
    from rich.table import Table

    from cardbase.draws.reports import deck_title

    hand, players, left, high = report.hand, report.players, report.left_aside, report.high
    out = console()
    if report.is_hand:
        data = report.as_dict()
        echo(
            f"{deck_title(deck)}: this is one hand, not a deck to deal from, so a deal's chances do not apply. "
            f"It holds {counted(data['hearts'], 'heart')} (trumps), "
            f"{counted(data['high_cards'], 'high card')} ({' '.join(high)}) "
            f"and {counted(data['void_suits'], 'void suit')}. For a deal's chances, give the deck it is dealt from "
            "(e.g. examples/decks/meio-3-players.txt)."
        )
        return
    who = "players unknown"
    if players and left is not None:
        who = f"{counted(players, 'player')}, {counted(left, 'card')} left aside"
    echo(f"{deck_title(deck)}: a {hand.hand}-card hand ({who})")
    table = Table(caption=f"exact; high cards are {', '.join(high)} (ace high)")
    for heading in ("cards", "hearts (trumps)", f"high cards ({' '.join(high)})", "void suits"):
        table.add_column(heading, justify="right")
    dists = [hand.hearts, hand.high_cards, hand.voids]
    for k in range(max(len(d) for d in dists)):
        cells = [percent(float(d[k])) if k < len(d) and d[k] else "" for d in dists]
        if any(cells):
            table.add_row(str(k), *cells)
    means = [float(sum(k * p for k, p in enumerate(d))) for d in dists]
    table.add_row("mean", *[f"{m:.2f}" for m in means])
    out.print(table)
