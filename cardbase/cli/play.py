"""``cardbase play``: play a game in the terminal against agents, every move checked.

One command per game (``play meio``; other games add theirs), all driving
:func:`cardbase.sim.play.play_interactive`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from cardbase.cli import complete, sim
from cardbase.cli.common import MAX_SEED, DbOption, FormatsOption, checked_path, echo, say_done
from cardbase.errors import counted, quoted
from cardbase.sim.options import mea_options, rules_options

if TYPE_CHECKING:
    from cardbase.sim.play import Session as PlaySession

app = typer.Typer(
    help="Play a game in the terminal against agents.\n\nExample: cardbase play meio --players 3 --vs search",
    no_args_is_help=True,
)


def _record_asked(record: Path | None, no_record: bool) -> None:
    """``--record FILE`` and ``--no-record`` together contradict each other: refused before the game
    (the record was silently not written)."""
    if record is not None and no_record:
        from cardbase.errors import UsageError

        raise UsageError(f"--record {quoted(str(record))} and --no-record contradict each other; give one")


def _record_path(record: Path | None, no_record: bool, game_id: str, seed: int) -> Path | None:
    """Where the game's record goes (``exports/<game>-seed<seed>.jsonl`` by default), checked before
    the game (``textfiles.output_target``): a path it could not be written to (a folder, a FIFO, a
    link to nothing, the deck played) was refused only after the person had played the whole game,
    which was then lost."""
    from cardbase.textfiles import output_target

    path = None if no_record else (record or Path("exports") / f"{game_id}-seed{seed}.jsonl")
    if path is not None:
        output_target(path, "game record")
    return path


def run_play(
    game_id: str,
    options: dict[str, Any],
    seat: int,
    vs: str,
    seed: int | None,
    record: Path | None,
    seed_chosen: bool = True,
) -> None:
    """Play one game with a person at ``seat`` (1-based) and agents elsewhere. A seed the person
    did not choose (``seed_chosen`` false) is named only once the game is over: it decides every
    deal, so it would tell where every card face down is."""
    from cardbase.errors import UsageError
    from cardbase.sim import meio_view
    from cardbase.sim.play import hinter, play_interactive, seed_after, seed_words
    from cardbase.sim.prompt import history_path, make_reader
    from cardbase.sim.records import record_lines, save_record
    from cardbase.sim.registry import derive_seed, game, new_seed

    entry = game(game_id)
    rules = entry.make_rules(options)
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
    if seed is None:
        seed = new_seed()
    agents = {
        s: entry.make_agent(name, rules, s, derive_seed(seed, "play", s)) for s, name in zip(others, names, strict=True)
    }
    hint = hinter(game_id, rules, seed)

    ui = meio_view.game_ui()
    read = make_reader(ui.vocabulary, history=history_path())

    seat_names = ", ".join(f"P{s + 1} {agents[s].name}" for s in others)
    echo(f"{entry.title}, {counted(n, 'player')}, {seed_words(seed, seed_chosen)}. You are P{seat}; {seat_names}.")
    echo("Type help for the commands.")
    session = play_interactive(
        rules, seed, human, agents, read, meio_view.write, hint, show=meio_view.show, help_text=meio_view.HELP, ui=ui
    )
    if session.abandoned:
        echo("Game left unfinished.")
    if told := seed_after(seed, seed_chosen):
        echo(told)
    if record is not None:
        lines = record_lines(
            rules,
            seed,
            session.state.history,
            ["human" if s == human else agents[s].name for s in range(n)],
        )
        save_record(record, lines)
        say_done(f"Record: {record} (replay it: cardbase replay {record})")
    _stop_if_cut_short(session, record)


@app.command()
def meio(
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=4, help="2, 3 or 4.")] = 3,
    seat: Annotated[
        int,
        typer.Option(
            "--seat", min=1, max=4, help="Your seat: 1 = P1, who starts round 1 (unless --rule first_player=…)."
        ),
    ] = 1,
    vs: Annotated[
        str,
        typer.Option(
            "--vs", shell_complete=complete.agents, help="Agent for the other seats: one name, or one per seat."
        ),
    ] = "search",
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", min=0, max=MAX_SEED, help="Seed of the deals (default: a new one).")
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record", help="Where to save the record [default: exports/meio-seedS.jsonl].", callback=checked_path
        ),
    ] = None,
    no_record: Annotated[bool, typer.Option("--no-record", help="Do not save a record.")] = False,
    ace_low: Annotated[bool, typer.Option("--ace-low", help="The ace ranks below the two.")] = False,
    hearts_broken: Annotated[
        bool,
        typer.Option("--hearts-broken", help="No leading hearts until a heart has been played."),
    ] = False,
    rule: sim.RuleOption = None,
) -> None:
    """Play Meio against agents: an illegal card is refused with the reason; type hint for advice.

    Example: cardbase play meio --players 3 --vs search,heuristic
    """
    _record_asked(record, no_record)
    from cardbase.errors import UsageError

    if players not in (2, 3, 4):
        raise UsageError(f"Meio is for 2, 3 or 4 players, not {players}")
    flags = {"players": players, "ace_high": not ace_low, "hearts_anytime": not hearts_broken}
    options = rules_options("meio", flags, rule)
    chosen = seed is not None
    if seed is None:
        from cardbase.sim.registry import new_seed

        seed = new_seed()
    run_play("meio", options, seat, vs, seed, _record_path(record, no_record, "meio", seed), seed_chosen=chosen)


@app.command()
def mea(
    deck: Annotated[
        Path,
        typer.Option(
            "--deck",
            "-d",
            shell_complete=complete.decks,
            help="Your deck: a file or a database deck.",
            callback=checked_path,
        ),
    ],
    vs_deck: Annotated[
        Path,
        typer.Option(
            "--vs-deck",
            shell_complete=complete.decks,
            help="The opponent's deck: a file or a database deck.",
            callback=checked_path,
        ),
    ],
    vs: Annotated[
        str,
        typer.Option("--vs", shell_complete=complete.agents, help="The opponent: random, heuristic, search or ismcts."),
    ] = "search",
    seat: Annotated[int, typer.Option("--seat", min=1, max=2, help="1: you go first (yellow); 2: second (blue).")] = 1,
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", min=0, max=MAX_SEED, help="Seed of the shuffle (default: a new one).")
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record", help="Where to save the record [default: exports/mea-seedS.jsonl].", callback=checked_path
        ),
    ] = None,
    no_record: Annotated[bool, typer.Option("--no-record", help="Do not save a record.")] = False,
    drop_unknown: Annotated[
        bool, typer.Option("--drop-unknown", help="Leave out cards with unknown stats (default: refuse).")
    ] = False,
    formats: FormatsOption = None,
    layout: sim.LayoutOption = "checkerboard",
    diagonal: sim.DiagonalOption = False,
    attack_all: sim.AttackAllOption = False,
    move_in_first: sim.MoveInFirstOption = False,
    turn_start_elimination: sim.TurnStartEliminationOption = False,
    mana_after_flip: sim.ManaAfterFlipOption = False,
    max_turns: sim.MaxTurnsOption = 200,
    rule: sim.RuleOption = None,
    db: DbOption = None,
) -> None:
    """Play Méa against an agent on a board drawn in colour; an illegal action is refused with the rule.

    Type help for the commands, hint for the search agent's advice.

    Example: cardbase play mea -d examples/decks/mea-goblin-rush.txt --vs-deck examples/decks/mea-tile-control.txt
    """
    _record_asked(record, no_record)
    from cardbase.cli.common import loaded_notes, open_db
    from cardbase.decks.service import load_house
    from cardbase.errors import UsageError
    from cardbase.sim import mea_view
    from cardbase.sim.mea import load_deck, make_rules
    from cardbase.sim.play import hinter, play_interactive, seed_after, seed_words
    from cardbase.sim.prompt import history_path, make_reader, writer
    from cardbase.sim.records import record_lines, save_record
    from cardbase.sim.registry import derive_seed, game, new_seed

    if seat not in (1, 2):
        raise UsageError(f"--seat is 1 (first) or 2 (second), not {seat}")
    entry = game("mea")
    options = rules_options(
        "mea",
        mea_options(layout, diagonal, attack_all, move_in_first, turn_start_elimination, mana_after_flip, max_turns),
        rule,
    )
    database = open_db(db)
    house = load_house(formats, database)
    mine, theirs = (load_deck(database, path, drop_unknown, house) for path in (deck, vs_deck))
    loaded_notes(mine, theirs)
    human = seat - 1
    decks = [mine.deck, theirs.deck] if human == 0 else [theirs.deck, mine.deck]
    rules = make_rules(decks, options)
    chosen = seed is not None
    if seed is None:
        seed = new_seed()
    path = _record_path(record, no_record, "mea", seed)
    other = 1 - human
    agents = {other: entry.make_agent(vs, rules, other, derive_seed(seed, "play", other))}
    hint = hinter("mea", rules, seed)
    ui = mea_view.game_ui(rules)
    read = make_reader(ui.vocabulary, history=history_path())

    echo(
        f"Méa: you are P{seat} ({'yellow, first' if human == 0 else 'blue, second'}) with {mine.label}; "
        f"P{other + 1} {agents[other].name} plays {theirs.label}. {seed_words(seed, chosen).capitalize()}."
    )
    for note in rules.report_notes():
        echo(f"Note: {note}")
    echo("Type help for the commands.")
    session = play_interactive(
        rules, seed, human, agents, read, writer(), hint, show=mea_view.show, help_text=mea_view.HELP, ui=ui
    )
    if session.abandoned:
        echo("Game left unfinished.")
    if told := seed_after(seed, chosen):
        echo(told)
    if path is not None:
        names = ["human", "human"]
        names[other] = agents[other].name
        lines = record_lines(rules, seed, session.state.history, names)
        save_record(path, lines)
        say_done(f"Record: {path} (replay it: cardbase replay {path})")
    _stop_if_cut_short(session, path)


@app.command()
def meikyu(
    players: Annotated[int, typer.Option("--players", "-p", min=2, max=5, help="2 to 5.")] = 3,
    seat: Annotated[int, typer.Option("--seat", min=1, max=5, help="Your seat, 1 to the number of players.")] = 1,
    vs: Annotated[
        str,
        typer.Option(
            "--vs",
            shell_complete=complete.agents,
            help="Agent for the other seats: one name, or one per seat (random, heuristic, search, ismcts).",
        ),
    ] = "heuristic",
    seed: Annotated[
        int | None,
        typer.Option("--seed", "-s", min=0, max=MAX_SEED, help="Seed of the shuffles and dice (default: new)."),
    ] = None,
    assume: sim.AssumeOption = None,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record", help="Where to save the record [default: exports/meikyu-seedS.jsonl].", callback=checked_path
        ),
    ] = None,
    no_record: Annotated[bool, typer.Option("--no-record", help="Do not save a record.")] = False,
    farm: sim.FarmOption = "points",
    aggression_target: sim.TargetOption = "attacker",
    map_room: sim.MapRoomOption = "stays",
    rule: sim.RuleOption = None,
    db: DbOption = None,
) -> None:
    """Play Meikyu Kingdom in the terminal: rooms, kingdoms, your hand and the dice are shown,
    and an illegal action is refused with the rule's reason. Type help for the commands.

    Example: cardbase play meikyu --players 3 --vs heuristic --assume default

    Example: cardbase play meikyu --players 2 --vs search --seed 7 --assume default
    """
    _record_asked(record, no_record)
    from cardbase.errors import UsageError
    from cardbase.sim.meikyu import make_rules, play_session, pool_from_database
    from cardbase.sim.prompt import writer
    from cardbase.sim.registry import new_seed

    if players not in (2, 3, 4, 5):
        raise UsageError(f"Meikyu Kingdom is for 2 to 5 players, not {players}")
    readings = rules_options("meikyu", sim.meikyu_readings(farm, aggression_target, map_room), rule)
    pool = pool_from_database(db, assume)
    rules = make_rules(pool, players, **readings)
    chosen = seed is not None
    if seed is None:
        seed = new_seed()
    path = _record_path(record, no_record, "meikyu", seed)
    session = play_session(rules, seat, vs, seed, path, writer(), seed_chosen=chosen, done=say_done)
    _stop_if_cut_short(session, path)


def _stop_if_cut_short(session: PlaySession, record: Path | None) -> None:
    """After Ctrl-C the game was saved like ``quit``; the command still ends as interrupted (130).
    Input that ended at the prompt (a script of moves that ran out, ``< /dev/null``, Ctrl-D) saved it
    too, but is no finished game and no ``quit``: the moves could not be read to the end (exit 2)."""
    from cardbase.errors import Interrupted, UnreadableInput
    from cardbase.textfiles import data_on_stdout

    saved = (
        "the game was not saved"
        if record is None
        else "the game so far is written to standard output"  # -o -, /dev/stdout: no file to name
        if data_on_stdout()
        else f"the game so far is saved in {record}"
    )
    if session.interrupted:
        raise Interrupted(saved)
    if session.input_ended:
        raise UnreadableInput(f"standard input ended before the game was over (type quit to leave a game); {saved}")
