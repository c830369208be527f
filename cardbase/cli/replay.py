"""``cardbase replay FILE``: re-check every action of a game record."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardbase.cli.common import JsonOption, checked_path, print_json
from cardbase.errors import counted

if TYPE_CHECKING:  # imported lazily at run time
    from cardbase.sim.records import ReplayResult


def replay(
    file: Annotated[Path, typer.Argument(help="A game record (JSON Lines), one or more games.", callback=checked_path)],
    moves: Annotated[bool, typer.Option("--moves", help="Also list every action.")] = False,
    json: JsonOption = False,
) -> None:
    """Replay a game record, re-checking every action against the rules.

    The first illegal action stops it (exit 1) with its line, number, player and reason.

    Example: cardbase sim meio --players 3 --agents heuristic,random,random --games 5 --seed 1 --records exports/records

    Example: cardbase replay exports/records/meio-3p-seed1.jsonl --moves
    """
    from cardbase.sim.records import read_records
    from cardbase.sim.records import replay as replay_record

    results = [replay_record(r, keep_moves=moves) for r in read_records(file)]
    if json:
        print_json(
            [
                {
                    "game": r.record.game,
                    "line": r.record.line,
                    "rules": r.record.rules,
                    "seed": r.record.seed,
                    "actions": r.actions,
                    "finished": r.finished,
                    "outcome": r.outcome.to_dict() if r.outcome else None,
                    **({"notes": _notes(r)} if _notes(r) else {}),
                    **({"moves": [{"n": n, "player": p, "action": a} for n, p, a in r.moves]} if moves else {}),
                }
                for r in results
            ]
        )
        return
    from rich.table import Table

    from cardbase.cli.common import console

    con = console()
    for r in results:
        if moves:
            con.print(f"game at line {r.record.line}", style="bold")
            for n, p, a in r.moves:
                con.print(f"{n:4d}  {p:>6}  {a}", markup=False)
    table = Table(title=f"{file}: {counted(len(results), 'game')}, every action legal")
    for col in ("line", "game", "players", "seed", "actions", "result", "scores"):
        table.add_column(col, justify="right" if col in ("line", "actions") else "left")
    shown = results if len(results) <= 20 else results[:20]
    for r in shown:
        o = r.outcome
        if o is None:
            result, scores = "unfinished", "—"
        else:
            result = ("shared: " if o.shared else "won by ") + ", ".join(f"P{w + 1}" for w in o.winners)
            scores = " ".join(f"{s:g}" for s in o.scores)
        table.add_row(
            str(r.record.line),
            r.record.game,
            str(r.record.rules.get("players", "?")),
            "—" if r.record.seed is None else str(r.record.seed),
            str(r.actions),
            result,
            scores,
        )
    con.print(table)
    if len(results) > len(shown):
        done = sum(1 for r in results if r.finished)
        con.print(f"… and {len(results) - len(shown)} more; {done} of {len(results)} finished")
    for note in dict.fromkeys(n for r in results for n in _notes(r)):
        con.print(f"Note: {note}", markup=False)


def _notes(result: ReplayResult) -> list[str]:
    """What a report of this game must say (a game's rules may give notes, e.g. Méa's demo cards)."""
    notes = getattr(result.state.rules, "report_notes", None)
    return list(notes()) if callable(notes) else []
