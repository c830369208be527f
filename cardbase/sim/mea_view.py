"""The Méa table drawn with Rich for ``cardbase play mea``: tiles in their owner's colour,
monsters with attack/defence, mana, hands and decks. Rich is imported on first use."""

from __future__ import annotations

import re
from typing import Any

from cardbase.errors import counted
from cardbase.games.base import SPECTATOR
from cardbase.games.mea import board as B
from cardbase.games.mea.actions import Draw
from cardbase.games.mea.cards import MeaCard, MeaCardType
from cardbase.games.mea.codes import BOARD, HAND, OUT, UNKNOWN, seat_name
from cardbase.games.mea.observation import MeaObservation
from cardbase.games.mea.rules import HAND_LIMIT, MeaRules
from cardbase.sim.play import GameUI, Vocabulary
from cardbase.terminal import console, safe_text

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
  card <name>                     a card's cost, attack, defence and text
  hint       the search agent's best move and the next, with 95% intervals (or: too close to call)
  undo       take back your last action (until a card is drawn, a deal or a die roll, or another moves)
  legal      list your legal moves by kind (legal summon: every summon)
  show       show the table again
  help       this text
  quit       leave the game (the record keeps the moves so far; so does Ctrl-C)
A unique start or a close spelling of a card name is enough (summon ferret b1); Tab completes."""


def table(observation: MeaObservation) -> Any:
    """A Rich renderable of what ``observation``'s player sees. Every text in it is a Rich ``Text``
    (never read as markup), and what comes from the game's cards is made terminal-safe first
    (:func:`cardbase.terminal.safe_text`, before layout so widths stay right): a card named
    ``[bold]x`` or holding an ESC is shown as those characters, the ESC as ``\\x1b``."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    v = observation.view
    me = observation.player
    tiles = v.tiles()
    grid = Table(show_header=False, show_lines=True, box=None, padding=(0, 1))
    if tiles:
        xs = [B.xy(q)[0] for q in tiles]
        ys = [B.xy(q)[1] for q in tiles]
        columns = range(min(xs), max(xs) + 1)
        grid.add_column("", justify="right", style="dim")
        for _ in columns:
            grid.add_column("", width=22)
        for y in range(max(ys), min(ys) - 1, -1):
            cells: list[Any] = [Text(str(y + 1))]
            for x in columns:
                q = B.pos(x, y)
                if q not in tiles:
                    cells.append(Text(""))
                    continue
                owner = tiles[q]
                colour = COLOURS[owner]
                cell = Text()
                cell.append(f" {B.name(q)} ", style=f"bold black on {colour}")
                cell.append(f" {seat_name(owner)}", style=colour)
                for i in v.on_tile(q):
                    c = v.controller(i)
                    mark = "" if v.can_attack(i) or c != v.active else " ·"
                    # the name wraps at spaces in the cell
                    cell.append(f"\n{safe_text(v.card(i).name)} ", style=f"bold {COLOURS[c]}")
                    cell.append(f"{v.attack_of(i)}/{v.defence_of(i)}{mark}")
                cells.append(cell)
            grid.add_row(*cells)
    lines: list[Any] = [Text(safe_text(status_line(observation)))]
    lines.append(grid)
    for seat in (0, 1):
        t = Text()
        t.append(f"{seat_name(seat)} ({COLOURS[seat]})", style=f"bold {COLOURS[seat]}")
        t.append(
            f"{' (you)' if seat == me else ''}: {counted(v.tile_count(seat), 'tile')}, deck {len(v.deck(seat))}, hand "
        )
        if seat == me:
            t.append(", ".join(safe_text(hand_entry(v.card(i))) for i in v.hand(seat)) or counted(0, "card", zero="no"))
        else:
            t.append(counted(len(v.hand(seat)), "card", zero="no"))
        lines.append(t)
    choice = v.choice()
    if choice is not None:
        lines.append(Text(safe_text(f"{seat_name(choice['player'])} chooses {choice['for']}"), style="bold"))
    if v.end_reason is None and v.current_player == me:
        lines.append(Text("Your move (legal: the options; help: the commands)", style="dim"))
    lines.append(
        Text(
            "monster attack/defence in its controller's colour; · has moved or attacked; "
            "hand: name (cost, attack/defence)",
            style="dim",
        )
    )
    return Group(*lines)


def status_line(observation: MeaObservation) -> str:
    """The table's first line: the phase, whose turn it is, numbered as that player counts their
    turns (``P1's turn 2``), and the mana left."""
    v = observation.view
    if v.end_reason is not None:
        return f"Méa · game over: {v.end_reason}"
    if v.phase == "opening":  # before the first turn: whoever draws their opening hand
        return f"Méa · opening draws · {seat_name(v.current_player)} draws"
    mana = f" · mana {v.mana}" if v.phase in ("main", "choice", "flip") else ""
    return f"Méa · {v.turn_label()} · {v.phase}{mana}"


def show(observation: MeaObservation) -> None:
    """Draw the table on the terminal."""
    console().print(table(observation))


def hand_entry(card: MeaCard) -> str:
    """A card in the hand: ``Crumb Goblin (1, 1/2)`` for a monster (cost, attack/defence),
    ``Storm (1, assist)`` for an assist."""
    if card.type == MeaCardType.MONSTER:
        return f"{card.name} ({card.cost}, {card.attack}/{card.defence})"
    return f"{card.name} ({card.cost}, assist)"


def card_text(rules: MeaRules, name: str) -> str:
    """``card NAME``: the card as the game plays it."""
    card = next(c for c in rules.tables().cards if c.name == name)
    stats = f"cost {card.cost}" + (
        f", attack {card.attack}, defence {card.defence}" if card.type == MeaCardType.MONSTER else ""
    )
    demo = " [demo: made for cardbase, not a published card]" if card.is_demo else ""
    text = card.text or "no abilities"
    bare = " (plays as its bare stats: its text is not expressed as data)" if card.unexpressed else ""
    return f"{card.name} — {card.type.value}, {stats}{demo}\n  {text}{bare}"


WORDS = ("draw", "summon", "play", "move", "attack", "with", "flip", "none", "choose", "obliterate")
_TILE = re.compile(r"[a-zA-Z]\d{1,2}")


def effects(before: MeaObservation, after: MeaObservation, done: str) -> list[str]:
    """What an action did, as the player sees it: the abilities it set off (either player's,
    each named with its card: ``Siege Snail (P2) — At the start of your turn: …``), then monsters
    killed, returned, displaced or changed, tiles flipped, added or removed, cards drawn (by name
    into one's own hand)."""
    a, b = before.view, after.view
    me = before.player
    names = [a.card(i).name for i in range(a.card_count)]
    lines: list[str] = [f"{card} ({seat_name(p)}) — {ability}" for card, ability, p in b.abilities_fired()]
    moved_by_action = done.split(": ", 1)[-1].startswith("move ")
    summoned = done.split(": ", 1)[-1].startswith("summon ")
    for i in range(len(names)):
        was, now = a.zone(i), b.zone(i)
        who = f"{names[i]} ({seat_name(a.controller(i))})"
        if was == BOARD and now == OUT:
            lines.append(f"{who} dies on {B.name(a.tile_of(i))}")
        elif was == BOARD and now == HAND:
            lines.append(f"{who} returns to {seat_name(b.controller(i))}'s hand")
        elif was != BOARD and now == BOARD and not summoned:
            lines.append(f"{names[i]} ({seat_name(b.controller(i))}) comes onto {B.name(b.tile_of(i))}")
        elif was == BOARD and now == BOARD:
            if a.tile_of(i) != b.tile_of(i) and not moved_by_action:
                lines.append(f"{who} goes from {B.name(a.tile_of(i))} to {B.name(b.tile_of(i))}")
            if a.controller(i) != b.controller(i):
                lines.append(f"{names[i]} is now controlled by {seat_name(b.controller(i))}")
            old = (a.attack_of(i), a.defence_of(i))
            new = (b.attack_of(i), b.defence_of(i))
            if old != new:
                lines.append(f"{names[i]} ({seat_name(b.controller(i))}): {old[0]}/{old[1]} → {new[0]}/{new[1]}")
    tiles_a, tiles_b = a.tiles(), b.tiles()
    for q in sorted(set(tiles_a) | set(tiles_b)):
        if q in tiles_a and q not in tiles_b:
            lines.append(f"tile {B.name(q)} ({seat_name(tiles_a[q])}) is removed from the board")
        elif q not in tiles_a:
            lines.append(f"a new tile {B.name(q)} for {seat_name(tiles_b[q])}")
        elif tiles_a[q] != tiles_b[q]:
            lines.append(f"tile {B.name(q)} flips to {seat_name(tiles_b[q])} ({COLOURS[tiles_b[q]]})")
    if me != SPECTATOR:
        had = a.hand(me)
        got = [i for i in b.hand(me) if i not in had and a.zone(i) != BOARD]
        if got:
            lines.append(f"you draw {', '.join(hand_entry(a.card(i)) for i in got)}")
    for opp in (0, 1) if me == SPECTATOR else (1 - me,):
        left = sum(
            1
            for i in range(len(names))
            if a.zone(i) == UNKNOWN and b.zone(i) in (BOARD, OUT) and (me != SPECTATOR or a.owner(i) == opp)
        )
        drew = len(b.hand(opp)) - len(a.hand(opp)) + left
        if drew > 0:
            lines.append(f"{seat_name(opp)} draws {counted(drew, 'card')}")
    return lines


def confirm(observation: MeaObservation, action: Any) -> str | None:
    """Ask before a draw that fills the hand to 11 cards: an instant loss."""
    if not isinstance(action, Draw):
        return None
    v = observation.view
    seat = observation.player
    total = len(v.hand(seat)) + min(action.k, len(v.deck(seat)))
    if total < HAND_LIMIT:
        return None
    return (
        f"Drawing {action.k} gives you {counted(total, 'card')} in hand: with {HAND_LIMIT} you lose at once. Draw "
        f"anyway?"
    )


def game_ui(rules: MeaRules) -> GameUI:
    """What ``play mea`` adds to the prompt: effects, names, ``card NAME``, the draw-11 question."""
    names = tuple(sorted({c.name for c in rules.tables().cards}))
    return GameUI(
        effects=effects,
        vocabulary=Vocabulary((*WORDS, "card", "hint", "legal", "show", "help", "quit"), names, _TILE),
        card=lambda observation, name: card_text(rules, name),
        confirm=confirm,
        known_names=lambda state, seat: state.known_names(seat),
    )
