"""The Méa table drawn with Rich for ``cardbase play mea``: tiles in their owner's colour,
monsters with attack/defence, mana, hands and decks. Rich is imported on first use."""

from __future__ import annotations

from typing import Any

from cardbase.games.mea import board as B
from cardbase.games.mea.engine import MeaObservation, seat_name

COLOURS = ("yellow", "blue")
HELP = """Commands:
  draw 2                          end your turn drawing 2 cards (at least 1; 11 in hand loses)
  summon <card> b2                summon a monster from your hand onto your tile b2
  play <card>                     play an assist
  move <card>@b1 b2               move a monster to an adjacent tile
  attack b2 with <card>@a2        attack the monsters on b2 (add + <card>@c2 for a combined attack)
  flip b2 / flip none             the start-of-turn flip
  choose b2 / choose <card>@b2    choose a target when asked
  obliterate b2                   end your turn with an empty deck
  hint       ask the search agent what it would do
  legal      list your legal moves
  show       show the table again
  help       this text
  quit       leave the game (the record keeps the moves so far)"""


def table(observation: MeaObservation) -> Any:
    """A Rich renderable of what ``observation``'s player sees."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    v = observation.view
    me = observation.player
    tab = v._tab
    grid = Table(show_header=False, show_lines=True, box=None, padding=(0, 1))
    if v._tiles:
        xs = [B.xy(q)[0] for q in v._tiles]
        ys = [B.xy(q)[1] for q in v._tiles]
        columns = range(min(xs), max(xs) + 1)
        grid.add_column("", justify="right", style="dim")
        for _ in columns:
            grid.add_column("", width=22)
        for y in range(max(ys), min(ys) - 1, -1):
            cells: list[Any] = [Text(str(y + 1))]
            for x in columns:
                q = B.pos(x, y)
                if q not in v._tiles:
                    cells.append(Text(""))
                    continue
                owner = v._tiles[q]
                colour = COLOURS[owner]
                cell = Text()
                cell.append(f" {B.name(q)} ", style=f"bold black on {colour}")
                cell.append(f" {seat_name(owner)}", style=colour)
                for i in v._occ[q]:
                    c = v._ctrl[i]
                    mark = "" if v.can_attack(i) or c != v._active else " ·"
                    cell.append(f"\n{tab.names[i][:15]} ", style=f"bold {COLOURS[c]}")
                    cell.append(f"{v.attack_of(i)}/{v.defence_of(i)}{mark}")
                cells.append(cell)
            grid.add_row(*cells)
    lines: list[Text | Table] = [Text(_status(observation))]
    lines.append(grid)
    for seat in (0, 1):
        t = Text()
        t.append(f"{seat_name(seat)} ({COLOURS[seat]})", style=f"bold {COLOURS[seat]}")
        t.append(f"{' (you)' if seat == me else ''}: {v.tile_count(seat)} tiles, deck {len(v._deck[seat])}, hand ")
        if seat == me:
            t.append(", ".join(f"{tab.names[i]} [{tab.cost[i]}]" for i in v._hand[seat]) or "—")
        else:
            t.append(f"{len(v._hand[seat])} cards")
        lines.append(t)
    choice = v.choice()
    if choice is not None:
        lines.append(Text(f"{seat_name(choice['player'])} chooses {choice['for']}", style="bold"))
    if v._end is None and v.current_player == me:
        lines.append(Text("Your move (legal: the options; help: the commands)", style="dim"))
    lines.append(Text("monster attack/defence in its controller's colour; · has moved or attacked", style="dim"))
    return Group(*lines)


def _status(observation: MeaObservation) -> str:
    v = observation.view
    if v._end is not None:
        return f"Méa · game over: {v._end[1]}"
    if v.phase == "opening":  # before the first turn: whoever draws their opening hand
        return f"Méa · opening draws · {seat_name(v.current_player)} draws"
    mana = f" · mana {v.mana}" if v.phase in ("main", "choice", "flip") else ""
    return f"Méa · turn {v.turn} · {seat_name(v.active)}'s turn · {v.phase}{mana}"


def show(observation: MeaObservation) -> None:
    """Draw the table on the terminal."""
    from rich.console import Console

    Console(highlight=False).print(table(observation))
