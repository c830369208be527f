"""``cardbase play``: play a game in the terminal against agents, every move checked.

One command per game (``play meio``; other games add theirs), all driving
:func:`cardbase.sim.play.play_interactive`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

app = typer.Typer(help="Play a game in the terminal against agents.", no_args_is_help=True)


def run_play(
    game_id: str,
    options: dict[str, Any],
    seat: int,
    vs: str,
    seed: int | None,
    record: Path | None,
) -> None:
    """Play one game with a person at ``seat`` (1-based) and agents elsewhere."""
    import secrets

    from cardbase.errors import UnreadableInput, UsageError
    from cardbase.sim.play import play_interactive
    from cardbase.sim.records import record_lines
    from cardbase.sim.registry import derive_seed, game

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
        raise UsageError(f"--vs needs one agent, or one per other seat ({len(others)}), not {vs!r}")
    if seed is None:
        seed = secrets.randbelow(2**31)
    agents = {
        s: entry.make_agent(name, rules, s, derive_seed(seed, "play", s)) for s, name in zip(others, names, strict=True)
    }
    adviser = entry.make_agent("search", rules, human, derive_seed(seed, "hint"))

    def hint(observation: Any, legal: Any) -> str:
        evaluate = getattr(adviser, "evaluate", None)
        if evaluate is None:
            return str(adviser.act(observation, legal))
        ranked = evaluate(observation, legal)
        best, score = ranked[0]
        if len(ranked) == 1 or score != score:  # NaN: only one candidate
            return f"{best} (the only sensible move)"
        rest = "; ".join(f"{a} {s:.2f}" for a, s in ranked[1:3])
        return f"{best} (expected round score {score:.2f}; then {rest})"

    def read(prompt: str) -> str | None:
        try:
            return input(prompt)
        except EOFError:
            return None

    seat_names = ", ".join(f"P{s + 1} {agents[s].name}" for s in others)
    typer.echo(f"{entry.title}, {n} players, seed {seed}. You are P{seat}; {seat_names}.")
    typer.echo("Type help for the commands.")
    session = play_interactive(rules, seed, human, agents, read, typer.echo, hint)
    if session.abandoned:
        typer.echo("Game left unfinished.")
    if record is not None:
        lines = record_lines(
            rules,
            seed,
            session.state.history,
            ["human" if s == human else agents[s].name for s in range(n)],
        )
        try:
            record.parent.mkdir(parents=True, exist_ok=True)
            record.write_text("\n".join(lines) + "\n", encoding="utf-8")
        except OSError as error:
            raise UnreadableInput(f"cannot write the record {record}: {error}") from None
        typer.echo(f"Record: {record} (replay it: cardbase replay {record})")


@app.command()
def meio(
    players: Annotated[int, typer.Option("--players", "-p", help="2, 3 or 4.")] = 3,
    seat: Annotated[int, typer.Option("--seat", help="Your seat: 1 = P1, who starts.")] = 1,
    vs: Annotated[
        str,
        typer.Option("--vs", help="Agent for the other seats: one name, or one per seat."),
    ] = "search",
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Seed of the deals (default: a new one).")] = None,
    record: Annotated[
        Path | None,
        typer.Option("--record", help="Where to save the record [default: exports/meio-seedS.jsonl]."),
    ] = None,
    no_record: Annotated[bool, typer.Option("--no-record", help="Do not save a record.")] = False,
    ace_low: Annotated[bool, typer.Option("--ace-low", help="The ace ranks below the two.")] = False,
    hearts_broken: Annotated[
        bool,
        typer.Option("--hearts-broken", help="No leading hearts until a heart has been played."),
    ] = False,
) -> None:
    """Play Meio against agents: an illegal card is refused with the reason; type hint for advice.

    Example: cardbase play meio --players 3 --vs search,heuristic
    """
    from cardbase.errors import UsageError

    if players not in (2, 3, 4):
        raise UsageError(f"Meio is for 2, 3 or 4 players, not {players}")
    options = {"players": players, "ace_high": not ace_low, "hearts_anytime": not hearts_broken}
    if seed is None:
        import secrets

        seed = secrets.randbelow(2**31)
    path = None if no_record else (record or Path("exports") / f"meio-seed{seed}.jsonl")
    run_play("meio", options, seat, vs, seed, path)
