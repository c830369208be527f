"""``cardbase draws``: exact opening-draw probabilities for a deck file, per-game opening reports, sample hands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from cardbase.cli.common import MAX_SEED, DbOption, JsonOption, console, open_db, print_json, warn

NeedOpt = Annotated[
    list[str] | None,
    typer.Option("--need", "-n", help='At least: "COUNT QUERY", e.g. "2 t:monster cost<=3" (repeatable).'),
]
AtMostOpt = Annotated[list[str] | None, typer.Option("--at-most", help='At most: "COUNT QUERY" (repeatable).')]
ExactlyOpt = Annotated[list[str] | None, typer.Option("--exactly", help='Exactly: "COUNT QUERY" (repeatable).')]


def draws(
    file: Annotated[Path, typer.Argument(help="Deck file: text (3 Selounticia per line) or JSON.")],
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
    plot: Annotated[Path | None, typer.Option("--plot", help="Write a PNG plot of the table (matplotlib).")] = None,
    game: Annotated[str | None, typer.Option("--game", "-g", help="Game, when the file has no 'game:' line.")] = None,
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
    from cardbase.draws.service import load, parse_need, setup
    from cardbase.errors import UsageError

    needs = [parse_need(t, Kind.AT_LEAST) for t in need or []]
    needs += [parse_need(t, Kind.AT_MOST) for t in at_most or []]
    needs += [parse_need(t, Kind.EXACTLY) for t in exactly or []]
    if cards is not None and by_turn is not None:
        raise UsageError("give --cards or --by-turn, not both")
    if plot is not None and not needs:
        raise UsageError("--plot draws the chance of needs: give at least one --need")
    database = open_db(db)
    resolved = load(database, file, check_game(game))
    deck = setup(database, resolved, needs, str(file))
    if players is not None and deck.game == "mea":
        raise UsageError("--players is for Meikyu (players sharing the Kingdom pile) and Meio")
    if players is not None and deck.game == "meio":
        deck.players = players
    model = _model(deck, needs, opening, players)
    if sample is not None:
        _samples(deck, model, sample, seed, cards, json)
    elif not needs:
        _report(database, deck, model, mana, trials, seed, json)
    else:
        _needs(deck, model, cards, by_turn, trials, seed, plot, json)


def _model(deck: Any, needs: list[Any], opening: int, players: int | None) -> Any:
    from cardbase.draws.openings import make_draws
    from cardbase.errors import UsageError

    try:
        return make_draws(deck.game, deck.cards, needs, opening, players or 2)
    except ValueError as error:
        raise UsageError(f"{deck.source}: {error}") from None


def _title(deck: Any) -> str:
    from cardbase.games.base import GAME_TITLES, GameId

    title = GAME_TITLES[GameId(deck.game)].split(":")[0]
    pile = "Kingdom pile" if deck.game == "meikyu" else "deck"
    return f"{deck.name} ({title}, {deck.size}-card {pile})"


def _percent(p: float) -> str:
    """A chance in percent with two decimals, or as many more as it takes not to round to 0% or 100%."""
    if p <= 0 or p >= 1:
        return "0%" if p <= 0 else "100%"
    for digits in range(2, 12):
        text = f"{100 * p:.{digits}f}"
        if float(text) not in (0.0, 100.0):
            return text + "%"
    return f"{100 * p:.3g}%"


def _interval(estimate: dict[str, Any]) -> str:
    return f"{_percent(estimate['probability'])} ({_percent(estimate['low'])[:-1]}–{_percent(estimate['high'])})"


def _notes(deck: Any, json: bool, extra: list[str] | None = None) -> None:
    for note in deck.notes + (extra or []):
        if json:
            warn(note)
        else:
            typer.echo(f"note: {note}")


# --- needs ---------------------------------------------------------------------------------------


def _needs(
    deck: Any, model: Any, cards: int | None, by_turn: int | None, trials: int | None, seed: int, plot: Any, json: bool
) -> None:
    from cardbase.draws.openings import TABLE_SEEN
    from cardbase.errors import UsageError

    single = cards is not None or (by_turn is None and deck.game == "meio")
    try:
        if by_turn is not None:
            answers = model.by_turn(by_turn)
        elif single:
            answers = model.answers([cards if cards is not None else model.max_seen])
        else:
            answers = model.answers([n for n in TABLE_SEEN if n <= model.max_seen])
    except ValueError as error:
        raise UsageError(f"{deck.source}: {error}") from None
    notes = []
    if not single and by_turn is None and model.max_seen < TABLE_SEEN[-1]:
        notes.append(f"the table stops at {model.max_seen} cards: no more can be seen ({_rule(deck, model, None)})")
    estimates = _monte_carlo(deck, model, [a.seen for a in answers], trials, seed) if trials else {}
    rows = [_row(deck, a, estimates.get(a.seen), seed) for a in answers]
    plot_note = ""
    if plot is not None:
        from cardbase.draws.plot import plot_answers

        plot_answers(
            answers if not single else _plot_range(model, answers),
            deck.needs,
            f"{deck.name}: opening draws\n" + _title(deck)[len(deck.name) + 1 :],
            plot,
            by_turn is not None,
            _rule(deck, model, by_turn),
        )
        plot_note = f"wrote {plot}"
    if json:
        print_json(rows[0] if single else rows)
        _notes(deck, True, notes)
        if plot_note:
            typer.echo(plot_note, err=True)
        return
    _print_needs(deck, model, rows, answers, single, by_turn is not None, trials, seed)
    _notes(deck, False, notes)
    if plot_note:
        typer.echo(plot_note)


def _plot_range(model: Any, answers: list[Any]) -> list[Any]:
    top = min(model.max_seen, max(10, answers[0].seen))
    return model.answers(list(range(1, top + 1)))


def _rule(deck: Any, model: Any, by_turn: int | None) -> str:
    if deck.game == "mea":
        rule = "Méa: cards seen are the top of the deck"
        if by_turn is not None:
            rule += f"; opening {model.opening} cards, then 1 drawn at the end of each turn"
        return rule
    if deck.game == "meikyu":
        return (
            f"Meikyu, {model.players} players: 4 cards dealt (no OPEN card: redealt), then 1 drawn at the start "
            "of each turn; exact"
        )
    return "Meio: cards of the 13-card dealt hand"


def _row(deck: Any, answer: Any, estimate: Any, seed: int) -> dict[str, Any]:
    row: dict[str, Any] = {
        "cards_seen": answer.seen,
        "probability": float(answer.joint),
        "method": "exact",
        "needs": deck.need_dicts(answer.each),
    }
    if answer.turn is not None:
        row = {"turn": answer.turn, **row}
    if estimate is not None:
        row["monte_carlo"] = {**estimate[0].as_dict(), "seed": seed}
        for d, e in zip(row["needs"], estimate[1:], strict=True):
            d["monte_carlo"] = e.as_dict()
    return row


def _monte_carlo(deck: Any, model: Any, seen: list[int], trials: int, seed: int) -> dict[int, list[Any]]:
    from cardbase.draws.exact import Groups
    from cardbase.draws.montecarlo import simulate, simulate_meikyu

    if deck.game == "meikyu":
        kinds = [(c.mask, c.open, c.count) for c in model.cards]
        return simulate_meikyu(kinds, deck.needs, model.players, seen, trials, seed).seen
    groups = Groups.of((c.mask, c.count) for c in model.cards)
    return {n: simulate(groups, deck.needs, n, trials, seed) for n in seen}


def _print_needs(
    deck: Any,
    model: Any,
    rows: list[dict[str, Any]],
    answers: list[Any],
    single: bool,
    by_turn: bool,
    trials: int | None,
    seed: int,
) -> None:
    out = console()
    typer.echo(_title(deck))
    typer.echo(_rule(deck, model, 1 if by_turn else None))
    if single:
        row, answer = rows[0], answers[0]
        for d in row["needs"]:
            need = f"{d['kind']} {d['count']} × {d['query']}"
            typer.echo(f"  {need}  ({d['matching']} cards match): {_percent(d['probability'])}")
        where = f"on turn {answer.turn} ({answer.seen} cards seen)" if answer.turn else f"in {answer.seen} cards seen"
        label = "all needs together" if len(deck.needs) > 1 else "the need"
        typer.echo(f"{label} {where}: {row['probability']:.6f} = {_percent(row['probability'])} (exact)")
        if trials:
            mc = row["monte_carlo"]
            typer.echo(
                f"Monte Carlo: {mc['probability']:.6f} (95% interval {mc['low']:.6f}–{mc['high']:.6f}, "
                f"{trials} hands, seed {seed})"
            )
        return
    from rich.table import Table

    table = Table(
        caption="exact; each need alone, then all together" + (f"; Monte Carlo seed {seed}" if trials else "")
    )
    if by_turn:
        table.add_column("turn", justify="right")
    table.add_column("cards seen", justify="right")
    for i, need in enumerate(deck.needs):
        table.add_column(f"{need}\n({deck.matching[i]} match)", justify="right")
    if len(deck.needs) > 1:
        table.add_column("all together", justify="right")
    if trials:
        table.add_column(f"Monte Carlo ({trials})\n95% interval", justify="right")
    for row, answer in zip(rows, answers, strict=True):
        cells = [str(answer.turn)] if by_turn else []
        cells.append(str(answer.seen))
        cells += [_percent(d["probability"]) for d in row["needs"]]
        if len(deck.needs) > 1:
            cells.append(_percent(row["probability"]))
        if trials:
            mc = row["monte_carlo"]
            cells.append(_interval(mc))
        table.add_row(*cells)
    out.print(table)


# --- sample hands ---------------------------------------------------------------------------------


def _samples(deck: Any, model: Any, hands: int, seed: int, cards: int | None, json: bool) -> None:
    from cardbase.draws.montecarlo import sample_hands, sample_meikyu_deals
    from cardbase.draws.openings import MEIKYU_DEAL, MEIO_HAND
    from cardbase.errors import UsageError

    copies = [i for i, c in enumerate(deck.cards) for _ in range(c.count)]
    redeals: list[int | None] = [None] * hands
    try:
        if deck.game == "meikyu":
            size = cards if cards is not None else MEIKYU_DEAL
            model.check(size)
            dealt = sample_meikyu_deals(
                copies, [deck.cards[i].open for i in copies], model.players, hands, seed, MEIKYU_DEAL, size
            )
            drawn = [h for h, _ in dealt]
            redeals = [r for _, r in dealt]
            what = f"Meikyu hands, {size} cards seen (seat 1 of {model.players}, OPEN cards redealt)"
        else:
            size = cards if cards is not None else MEIO_HAND if deck.game == "meio" else model.opening
            model.check(size)
            drawn = sample_hands(copies, size, hands, seed)
            what = {"meio": "Meio deals", "mea": "Méa opening hands"}.get(deck.game, "hands") + f" of {size}"
    except ValueError as error:
        raise UsageError(f"{deck.source}: {error}") from None
    if deck.game == "meio":
        drawn = [sorted(h, key=lambda i: _meio_order(deck.infos[i])) for h in drawn]
    out = []
    for hand, r in zip(drawn, redeals, strict=True):
        item: dict[str, Any] = {"cards": [_card_label(deck, i) for i in hand]}
        if r is not None:
            item["redeals"] = r
        if deck.needs:
            item["meets_needs"] = _meets(deck, hand)
        out.append(item)
    if json:
        print_json({"seed": seed, "hands": out})
        return
    typer.echo(f"{_title(deck)}: {hands} sample {what}, seed {seed}")
    for k, item in enumerate(out, 1):
        extra = ""
        if item.get("redeals"):
            extra += f"  (redealt {item['redeals']}×)"
        if "meets_needs" in item:
            extra += "  ✓ meets the needs" if item["meets_needs"] else "  ✗ misses a need"
        typer.echo(f"{k:>3}. {', '.join(item['cards'])}{extra}")


def _meio_order(info: Any) -> tuple[int, int]:
    return ("SHDC".index(info.suit) if info.suit in "SHDC" else 4, -(14 if info.rank == 1 else info.rank or 0))


def _card_label(deck: Any, i: int) -> str:
    info = deck.infos[i]
    if deck.game == "meio" and info.rank is not None and info.suit:
        from cardbase.games.meio.cards import RANK_LETTERS

        return f"{RANK_LETTERS.get(info.rank, str(info.rank))}{info.suit}"
    return info.name


def _meets(deck: Any, hand: list[int]) -> bool:
    counts = [sum(1 for i in hand if deck.cards[i].mask >> k & 1) for k in range(len(deck.needs))]
    return all(n.holds(c) for n, c in zip(deck.needs, counts, strict=True))


# --- per-game opening reports --------------------------------------------------------------------


def _report(database: Any, deck: Any, model: Any, mana: str, trials: int | None, seed: int, json: bool) -> None:
    if trials and deck.game != "meikyu":
        warn("--trials: the report is exact throughout; give --need to cross-check needs by Monte Carlo")
    if deck.game == "mea":
        _mea_report(database, deck, mana, json)
    elif deck.game == "meikyu":
        _meikyu_report(deck, model, trials, seed, json)
    else:
        _meio_report(deck, json)


def _parse_mana(text: str) -> list[int]:
    from cardbase.errors import UsageError

    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise UsageError(f"--mana {text!r}: give whole numbers, e.g. 3,4") from None
    if not values or len(values) > 10 or any(not 0 <= v <= 99 for v in values):
        raise UsageError(f"--mana {text!r}: give one or two whole numbers from 0 to 99, e.g. 3,4")
    return values


def _mea_report(database: Any, deck: Any, mana: str, json: bool) -> None:
    from cardbase.draws.openings import MEA_MAX_OPENING, mea_openings
    from cardbase.draws.service import castable_counts

    values = _parse_mana(mana)
    castable = castable_counts(database, deck, sorted(set(values)))
    rows = mea_openings(deck.size, castable, range(1, MEA_MAX_OPENING + 1))
    unknown_cost = sum(
        c.count for c, i in zip(deck.cards, deck.infos, strict=True) if i.type == "monster" and i.cost is None
    )
    monsters = sum(c.count for c, i in zip(deck.cards, deck.infos, strict=True) if i.type == "monster")
    seats = ["first player", "second player"] + [f"mana {m}" for m in values[2:]]
    if json:
        print_json(
            {
                "game": "mea",
                "deck": deck.name,
                "cards": deck.size,
                "method": "exact",
                "monsters": monsters,
                "monsters_unknown_cost": unknown_cost,
                "castable": {str(m): n for m, n in castable.items()},
                "first_turn_mana": {s: m for s, m in zip(seats, values, strict=False)},
                "openings": [
                    {"opening": r.opening, "no_castable_monster": {str(m): float(p) for m, p in r.no_castable.items()}}
                    for r in rows
                ],
            }
        )
        _notes(deck, True)
        return
    from rich.table import Table

    out = console()
    typer.echo(_title(deck) + ": opening hands")
    typer.echo("Draw 1–10 opening cards (11 or more in hand loses), then at least 1 at the end of each turn.")
    table = Table(caption="exact; castable: matches t:monster cost<=MANA")
    table.add_column("opening", justify="right")
    for seat, m in zip(seats, values, strict=False):
        table.add_column(f"no monster castable\nwith {m} mana ({seat})", justify="right")
    for r in rows:
        table.add_row(str(r.opening), *[_percent(float(r.no_castable[m])) for m in values])
    out.print(table)
    typer.echo(
        f"{monsters} monsters; castable with "
        + ", ".join(f"{m} mana: {castable[m]}" for m in sorted(castable))
        + (f"; {unknown_cost} of unknown cost, counted as not castable" if unknown_cost else "")
    )
    typer.echo(
        "First-turn mana is the opponent's tiles + your monsters, at least 3: on the rulebook's board the first "
        "player (yellow) counts 5 blue tiles, the second (blue) 4 yellow tiles + 1 for going second. "
        "Other boards: --mana A,B."
    )
    _notes(deck, False)


def _meikyu_report(deck: Any, model: Any, trials: int | None, seed: int, json: bool) -> None:
    from collections import Counter

    from cardbase.draws.montecarlo import simulate_meikyu
    from cardbase.draws.openings import MEIKYU_DEAL, meikyu_deal

    types: Counter[str] = Counter()
    for card, info in zip(deck.cards, deck.infos, strict=True):
        if not card.open:
            types[info.type] += card.count
    deal = meikyu_deal(dict(types), model.open_cards, model.players)
    runs = trials or 20_000
    sim = simulate_meikyu(
        [(0, c.open, c.count) for c in model.cards], [], model.players, [MEIKYU_DEAL], runs, seed, MEIKYU_DEAL
    )
    no_character = float(deal.by_type["character"][0]) if "character" in deal.by_type else 1.0
    data = {
        "game": "meikyu",
        "deck": deck.name,
        "kingdom_cards": deal.kingdom,
        "open_cards": deal.open_cards,
        "players": deal.players,
        "player_dealt_open": {"probability": float(deal.player_redeals), "method": "exact"},
        "deal_needs_redeal": {"probability": float(deal.deal_redeals), "method": "exact"},
        "redeals_per_deal": {
            "mean": sim.redeals_mean,
            "method": "monte carlo",
            "trials": runs,
            "seed": seed,
            "at_least_one": sim.any_redeal.as_dict(),
        },
        "opening_hand": {
            "method": "exact",
            "by_type": {t: [float(p) for p in pmf] for t, pmf in deal.by_type.items()},
            "no_character": no_character,
        },
    }
    if json:
        print_json(data)
        _notes(deck, True)
        return
    from rich.table import Table

    out = console()
    typer.echo(f"{_title(deck)}: the deal, {deal.players} players, {deal.open_cards} OPEN cards")
    typer.echo(
        "4 cards each; a player dealt an OPEN card returns their hand, the pile is shuffled and they draw 4 again, "
        "until no player holds one."
    )
    typer.echo(f"a player is dealt an OPEN card at the first deal: {_percent(float(deal.player_redeals))} (exact)")
    typer.echo(f"the first deal needs a redeal: {_percent(float(deal.deal_redeals))} (exact)")
    low, high = sim.any_redeal.interval
    typer.echo(
        f"redeals per deal: mean {sim.redeals_mean:.3f} (Monte Carlo, {runs} deals, seed {seed}; at least one: "
        f"{_percent(sim.any_redeal.p)}, 95% interval {_percent(low)}–{_percent(high)})"
    )
    plain = deal.kingdom - deal.open_cards
    table = Table(caption=f"exact: after redeals a hand is 4 uniform cards of the {plain} non-OPEN cards")
    table.add_column("cards of the type in the opening hand")
    for k in range(MEIKYU_DEAL + 1):
        table.add_column(str(k), justify="right")
    table.add_column("mean", justify="right")
    for t, pmf in deal.by_type.items():
        mean = sum(k * p for k, p in enumerate(pmf))
        table.add_row(t, *[_percent(float(p)) for p in pmf], f"{float(mean):.2f}")
    out.print(table)
    typer.echo(f"no character in the opening hand (a quest needs one): {_percent(no_character)} (exact)")
    _notes(deck, False)


def _meio_report(deck: Any, json: bool) -> None:
    from cardbase.draws.openings import MEIO_HAND, meio_hand
    from cardbase.errors import UsageError
    from cardbase.games.meio.cards import RANK_LETTERS

    cards = [(i.suit, i.rank) for c, i in zip(deck.cards, deck.infos, strict=True) for _ in range(c.count)]
    try:
        hand = meio_hand(cards, MEIO_HAND)
    except ValueError as error:
        raise UsageError(f"{deck.source}: {error}") from None
    players = deck.players or {28: 2, 40: 3, 52: 4}.get(deck.size)
    left = deck.size - MEIO_HAND * players if players else None
    high = [RANK_LETTERS.get(r, str(r)) for r in hand.high_ranks]
    if json:
        print_json(
            {
                "game": "meio",
                "deck": deck.name,
                "cards": deck.size,
                "players": players,
                "left_aside": left,
                "hand": hand.hand,
                "method": "exact",
                "hearts": [float(p) for p in hand.hearts],
                "voids": [float(p) for p in hand.voids],
                "high_ranks": high,
                "high_cards": [float(p) for p in hand.high_cards],
            }
        )
        _notes(deck, True)
        return
    from rich.table import Table

    out = console()
    who = f"{players} players, {left} card{'s' if left != 1 else ''} left aside" if players else "players unknown"
    typer.echo(f"{_title(deck)}: a {hand.hand}-card hand ({who})")
    table = Table(caption=f"exact; high cards are {', '.join(high)} (ace high)")
    for heading in ("cards", "hearts (trumps)", f"high cards ({' '.join(high)})", "void suits"):
        table.add_column(heading, justify="right")
    dists = [hand.hearts, hand.high_cards, hand.voids]
    for k in range(max(len(d) for d in dists)):
        cells = [_percent(float(d[k])) if k < len(d) and d[k] else "" for d in dists]
        if any(cells):
            table.add_row(str(k), *cells)
    means = [float(sum(k * p for k, p in enumerate(d))) for d in dists]
    table.add_row("mean", *[f"{m:.2f}" for m in means])
    out.print(table)
    _notes(deck, False)
