"""``cardbase cards``: search the catalog and show one card."""

from __future__ import annotations

import shlex
from typing import Annotated, Any

import typer

from cardbase.cli import complete
from cardbase.cli.common import CardArg, CardGameOpt, DbOption, JsonOption, console, echo, open_db, print_json
from cardbase.errors import counted

app = typer.Typer(
    help="Search cards and show them.\n\nExample: cardbase cards search 't:monster cost<=3' --game mea",
    no_args_is_help=True,
)

SEARCH_HELP = """Search cards with a Scryfall-style query.

\b
  dragon            name (or alias) contains "dragon"; "two words": a phrase
  t:monster         type (t:assist, t:land, t:character, t:item ...)
  cost<=3 atk>=4    numbers: cost, atk, def, level, points, dev, bravery,
                    wits, rank, copies
  o:draw  d:cheese  rules text / description contains
  game:meikyu  set:demo  source:rulebook  is:unknown  is:demo
  unknown:bravery  suit:h
  -t:tile           negation;  a or b;  (a or b) c
  /^c.*k$/          regex on name and text
  order:atk         sort (name, cost, atk, def, level, rank, ...; unknown
  direction:desc    last); also --order and --direction
  rank>=10          Meio ranks read ace high: the ace is above the king
  ace:low rank<=3   ... or ace low (as play --ace-low): the ace is below
                    the two; also --ace low

Example: cardbase cards search 't:monster cost<=3 (o:draw or atk>=4)' --game mea
"""


WIDE = 120
"""Below this many columns, or when the cards are of several games, a card's values share one
column, one ``field value`` a line and only the fields that apply to the card."""


def _longest_word(texts: list[str], cap: int) -> int:
    return min(cap, max((len(w) for t in texts for w in t.split()), default=1))


def _table(cards: list[dict[str, Any]], total: int, width: int) -> Any:
    """The search results as a table that wraps at word boundaries: each column is at least as
    wide as its longest word (the text column's up to 15), so no word is cut in two."""
    from rich.table import Table

    from cardbase.catalog.fields import APPLICABLE, GAME_FIELDS

    games = sorted({c["game"] for c in cards})
    stats = [f for g in games for f in GAME_FIELDS[g] if f.kind is int and f.name not in ("copies", "min_players")]
    stat_names = list(dict.fromkeys(f.name for f in stats))
    labels = {f.name: f.heading for f in stats}
    compact = len(games) > 1 or width < WIDE
    rows: list[list[str]] = []
    for c in cards:
        name = c["name"] + (" [demo]" if c["demo"] else "")
        if compact:
            applies = APPLICABLE.get((c["game"], c["type"]), ())
            values = [f"{labels[s]} {_value(c, s)}" for s in stat_names if s in applies and s in c]
            cells = [name, f"{c['game']} {c['set']}", c["type"], "\n".join(values)]
        else:
            cells = [name, c["game"], c["type"], c["set"], *[_value(c, s) if s in c else "" for s in stat_names]]
        rows.append([*cells, c.get("text") or ""])
    headings = ["name", "game set", "type", "values"] if compact else ["name", "game", "type", "set", *labels.values()]
    headings = [*headings, "text"]
    more = ""  # the rest are a --limit away (its bound: 10,000)
    if len(cards) < total:
        more = f" (--limit {total} shows all)" if total <= 10_000 else " (--limit 10000 shows more)"
    table = Table(caption=f"{len(cards)} of {counted(total, 'card')}{more}; ? = unknown, — = does not apply")
    for i, heading in enumerate(headings):
        column = [row[i] for row in rows]
        last = i == len(headings) - 1
        least = _longest_word([heading, *column], 15 if last else 30)
        table.add_column(heading, overflow="fold", min_width=least, max_width=60 if last else None)
    for row in rows:
        table.add_row(*row)
    return table


def _value(card: dict[str, Any], field: str) -> str:
    from cardbase.catalog.fields import value_text

    return value_text(card["game"], card["type"], field, card.get(field))


@app.command(help=SEARCH_HELP)
def search(
    query: Annotated[str, typer.Argument(shell_complete=complete.queries, help="The query (quote it for the shell).")],
    game: Annotated[
        str | None, typer.Option("--game", "-g", shell_complete=complete.games, help="Only this game.")
    ] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=10_000, help="At most this many cards.")] = 50,
    order: Annotated[
        str | None,
        typer.Option(
            "--order",
            shell_complete=complete.sort_keys,
            help="Sort by name, cost, atk, def, level, rank, … (as order: in the query).",
        ),
    ] = None,
    direction: Annotated[
        str | None,
        typer.Option(
            "--direction", shell_complete=complete.choices("asc", "desc"), help="asc or desc (as direction:)."
        ),
    ] = None,
    ace: Annotated[
        str | None,
        typer.Option(
            "--ace",
            shell_complete=complete.choices("high", "low"),
            help="Meio: the ace ranks high (default) or low (as ace: in the query).",
        ),
    ] = None,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    from cardbase.db.queries import card_dict, check_game
    from cardbase.db.search import SettingConflict, count_cards, search_cards

    game = check_game(game)
    database = open_db(db)
    with database.read() as conn:
        try:
            cards = [card_dict(c) for c in search_cards(conn, query, game, limit, order, direction, ace)]
        except SettingConflict as error:  # named as given here: --order name
            raise error.said_as(f"--{error.key} {error.given}") from None
        total = count_cards(conn, query, game, ace) if len(cards) == limit and not json else len(cards)
    if json:
        print_json(cards)
        return
    if not cards:
        echo(f"no cards match {query!r}", err=True)
        raise typer.Exit(1)
    console().print(_table(cards, total, console().width))
    if any(c["demo"] for c in cards):
        console().print("[demo] = a demo card made for cardbase, not a published Méa card.")


@app.command()
def show(
    name: CardArg,
    game: CardGameOpt = None,
    db: DbOption = None,
    json: JsonOption = False,
) -> None:
    """Show one whole card; on a miss, the closest names.

    Example: cardbase cards show grimor
    """
    from cardbase.catalog.fields import APPLICABLE
    from cardbase.db.queries import aliases_of, card_dict, check_game, find_card, tags_of

    game = check_game(game)
    database = open_db(db)
    with database.session() as session:
        card = find_card(session, name, game)
        data = card_dict(card, aliases_of(session, card), tags_of(session, card))
    if json:
        print_json(data)
        return
    from rich.table import Table

    table = Table(title=data["name"], show_header=False)
    table.add_column("field", style="bold")
    table.add_column("value", overflow="fold", max_width=80)
    applicable = set(APPLICABLE.get((data["game"], data["type"]), ()))
    for key, value in data.items():
        if key in ("name", "demo", "unknown") or (value is None and key not in applicable):
            continue
        if key == "abilities":
            value = (
                "not expressed as data: plays as bare stats in simulations"
                if value is None
                else f"{counted(len(value), 'sentence')} expressed as data (see --json)"
            )
        elif isinstance(value, list):
            value = ", ".join(value) or "—"
        table.add_row(
            key, "? (unknown)" if value is None and key in data["unknown"] else "—" if value is None else str(value)
        )
    console().print(table)
    if data["unknown"]:
        from cardbase.catalog.fields import unknown_reason

        reason, remedy = unknown_reason(str(data["source"]))
        how = (
            f"give them with `cardbase catalog edit {shlex.quote(str(data['name']))} FIELD=VALUE`"
            if remedy == "edit"
            else "import real values with `cardbase catalog import`"
        )
        console().print(f"unknown: {', '.join(data['unknown'])} ({reason}; {how})")


@app.command()
def tag(
    name: CardArg,
    tags: Annotated[
        list[str] | None,
        typer.Argument(shell_complete=complete.tags, help="Tags to add (e.g. removal).", show_default=False),
    ] = None,
    remove: Annotated[
        list[str] | None,
        typer.Option("--remove", "-r", shell_complete=complete.tags, help="A tag to take off (repeatable)."),
    ] = None,
    game: CardGameOpt = None,
    db: DbOption = None,
) -> None:
    """Tag a card for the whole catalog (an edit, kept in `catalog history`); without tags, list its tags.

    `tag:NAME` finds tagged cards in every query: cards search, the gallery, draws --need.

    Example: cardbase cards tag "Pocket Sand" removal
    """
    from cardbase.db.edit import retag_card
    from cardbase.db.queries import check_game, find_card, tags_of

    database = open_db(db)
    with database.session() as session:
        found = find_card(session, name, check_game(game))
        now = tags_of(session, found)
    if tags or remove:
        now = retag_card(database, found.id, tags or [], remove or [], "cli")
    from cardbase.games.base import is_demo

    marked = f"{found.name} [demo]" if is_demo(found) else found.name  # as the search table marks it
    echo(f"{marked}: " + (", ".join(now) if now else "no tags"))
