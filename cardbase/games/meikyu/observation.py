"""What one Meikyu player sees (``MeikyuState.observation(seat)``), and the prompt for the
decision at hand."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardbase.errors import counted, plural
from cardbase.games.base import (
    SPECTATOR,
    Outcome,
)
from cardbase.games.meikyu.codes import (
    A_AMULET,
    A_CASINO,
    A_DEFEND,
    A_GIVE,
    A_HANDLIMIT,
    A_HOSPITAL,
    A_HOT,
    A_KEEP,
    A_LANDCAP,
    A_MAIN,
    A_MIXED,
    A_ORDER,
    A_REFUGEE,
    A_TOMB,
    A_TSUNAMI,
    CHAR,
    DECISIONS,
    OP_REFDISC,
)
from cardbase.games.meikyu.pool import is_assumed
from cardbase.games.meikyu.rules import HAND_LIMIT, MeikyuRules, final_outcome, lands_held
from cardbase.games.meikyu.tables import MeikyuTables

if TYPE_CHECKING:
    from cardbase.games.meikyu.engine import MeikyuState

# --- observation ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MeikyuObservation:
    """What one player sees: their own hand, every kingdom, the rooms, the discard piles,
    the action under way. Other hands and the piles are sizes only; the Archives' two
    cards only to their drawer. The spectator's (``player`` :data:`~cardbase.games.base.SPECTATOR`)
    has no hand at all. ``stack``/``ask``/``args`` are the public turn machine,
    kept so that a search agent can rebuild a state."""

    rules: MeikyuRules = field(repr=False)  # (its repr is long; the observation's is about the game)
    player: int
    current_player: int
    turn_player: int
    turns: int
    ask: int
    args: tuple[Any, ...]
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    rooms: tuple[int, ...]
    mapped: tuple[int, ...]
    lands: tuple[tuple[int, ...], ...]
    refugees: tuple[tuple[int, ...], ...]
    points: tuple[int, ...]
    skips: tuple[int, ...]
    kpile_size: int
    kdiscard: tuple[int, ...]
    mpile_size: int
    mdiscard: tuple[int, ...]
    inplay: tuple[int, ...]
    archives: tuple[int, ...] | None
    archives_size: int
    ctx: dict[str, Any] | None
    stack: tuple[tuple[Any, ...], ...]
    first_rolls: tuple[tuple[int, int], ...]
    end: str
    hot_done: bool = False
    reached: bool = False
    """Under ``goal_check="reached"``: a kingdom has reached the goal this turn (public: points are)."""
    shown: tuple[tuple[int, ...], ...] = ()
    """Per seat, kinds seen going into that hand face up (the Hospital's return) and not
    seen leaving it since."""

    @property
    def decision(self) -> str:
        """The decision being asked for, by name."""
        return DECISIONS[self.ask]

    def hand_cards(self) -> dict[str, int]:
        """The observer's hand: card names and copies, alphabetically (empty for a spectator)."""
        t = self.rules.tables
        return {t.knames[k]: self.hand[k] for k in t.alpha if self.hand[k]}

    @property
    def prompt(self) -> str:
        """What the current player is asked to decide, as a player reads it (a discard of several
        cards in one line, :meth:`discards_prompt`)."""
        return self.discards_prompt() or _PROMPTS.get(self.ask, self.decision)

    def land_count(self, seat: int) -> int:
        """The lands a seat holds for the land limit and the tie-break (as :meth:`MeikyuState.land_count`)."""
        return lands_held(self.rules, self.lands[seat], self.refugees[seat])

    def outcome(self) -> Outcome | None:
        """The outcome once the game is over (points and lands are public), else ``None``."""
        if not self.end:
            return None
        n = self.rules.players
        return final_outcome(self.rules, self.end, self.points, [self.land_count(s) for s in range(n)])

    def effects(self, seat: int) -> tuple[int, int]:
        """The land-effect bits of a seat's kingdom: (owned, developed)."""
        lbit = self.rules.tables.lbit
        eff = deff = 0
        for e in self.lands[seat]:
            eff |= lbit[e >> 1]
            if e & 1:
                deff |= lbit[e >> 1]
        return eff, deff

    def discards_to_name(self) -> int:
        """At a decision that discards this player's Kingdom cards one at a time (the used cards'
        order, step 3's discard down to five, the Refugee's two): how many cards it discards
        (of the used cards, the last ones go without asking once they are all one card); else 0."""
        if self.current_player != self.player:
            return 0
        if self.ask == A_ORDER:
            return len(self.inplay)
        if self.ask == A_HANDLIMIT:
            return self.hand_sizes[self.player] - HAND_LIMIT
        if self.ask == A_REFUGEE:
            later = self.stack[-1][2] if self.stack and self.stack[-1][0] == OP_REFDISC else 0
            return min(1 + later, self.hand_sizes[self.player])
        return 0

    def discards_prompt(self) -> str | None:
        """What this player is asked to discard, all in one line: ``discard <card>, <card>``."""
        n = self.discards_to_name()
        if not n:
            return None
        t = self.rules.tables
        if self.ask == A_ORDER:
            used = ", ".join(t.knames[k] for k in self.inplay)
            which = f"P{self.args[1] + 1}'s Refugee discards" if len(self.args) > 1 else "the used cards"
            return f"discard {used} — {which} go on the discard pile in the order you name them, the last on top"
        why = "down to 5" if self.ask == A_HANDLIMIT else "the Refugee"
        return f"discard <card>, … ({counted(n, 'card')}: {why})"

    def describe(self) -> str:
        """A plain-text view for a terminal, several lines."""
        rules = self.rules
        t = rules.tables
        n = rules.players
        me = self.player

        def seat(i: int) -> str:
            return f"P{i + 1}" + (" (you)" if i == me else "")

        def star(name: str, field: str) -> str:
            """``*`` after a value the assumption profile gave (as the web board marks it)."""
            return "*" if is_assumed(rules.pool, name, field) else ""

        def card(k: int) -> str:
            if t.ktype[k] == CHAR:
                name = t.knames[k]
                return f"{name} {t.brav[k]}{star(name, 'bravery')}/{t.wits[k]}{star(name, 'wits')}"
            return t.knames[k]

        lines = []
        head = f"Meikyu Kingdom · turn {self.turns + 1} · {seat(self.turn_player)}'s turn"
        if self.end:
            head = f"Meikyu Kingdom · game over after {counted(self.turns, 'turn')}"
        lines.append(head)
        rooms = []
        for i, r in enumerate(self.rooms, 1):
            level = t.level[r]
            extra = f" → {level - 2} this turn (Map)" if r in self.mapped and self.turn_player == me else ""
            owned = t.llabels[r].split(" (")[0]
            land = f", land: {owned}" if owned != t.lnames[r] else ""
            name = t.lnames[r]
            rooms.append(
                f"[{i}] {name} (level {level}{star(name, 'level')}{extra}, {t.points[r]}{star(name, 'points')}"
                f"/{t.dev_points[r]}{star(name, 'developed_points')} {plural(t.dev_points[r], 'pt')}{land})"
            )
        lines.append("Rooms: " + ("  ".join(rooms) if rooms else "none face up"))
        for s in range(n):
            lands = []
            marked = ""  # the total adds a value the profile gave
            for i, e in enumerate(self.lands[s], 1):
                li = e >> 1
                dev = e & 1
                pts = t.dev_points[li] if dev else t.points[li]
                room = t.lnames[li]
                pts_star = star(room, "developed_points" if dev else "points")
                marked = marked or pts_star
                name = t.llabels[li].split(" (")[0]
                state = ", developed" if dev else ""
                lands.append(f"[{i}] {name} (L{t.level[li]}{star(room, 'level')}{state}, {pts}{pts_star} pt)")
            if self.refugees[s]:
                lands.append(f"Refugee ×{len(self.refugees[s])} (1 pt each)")
            skip = f" · loses {counted(self.skips[s], 'turn')}" if self.skips[s] else ""
            lines.append(
                (
                    f"{seat(s)}: {self.points[s]}{marked} {plural(self.points[s], 'pt')} · "
                    f"{counted(self.hand_sizes[s], 'card')}{skip} · kingdom: "
                )
                + (", ".join(lands) or "no lands")
            )
        mine = [card(k) + (f" ×{self.hand[k]}" if self.hand[k] > 1 else "") for k in t.alpha if self.hand[k]]
        if me != SPECTATOR:
            lines.append("Your hand (characters: swords/seals): " + (", ".join(mine) or "empty"))
        top = t.knames[self.kdiscard[-1]] if self.kdiscard else "—"
        lines.append(
            f"Kingdom pile {self.kpile_size} · discards {len(self.kdiscard)} (top: {top}) · "
            f"Meikyu pile {self.mpile_size} · rooms discarded {len(self.mdiscard)}"
        )
        ctx = self.ctx
        if ctx is not None and ctx.get("kind") in ("quest", "attack", "develop"):
            lines.append("Under way: " + _describe_ctx(t, ctx))
        if self.archives:
            lines.append("Archives: you drew " + " and ".join(t.knames[k] for k in self.archives))
        if self.current_player == me and not self.end:
            lines.append("Your move: " + self.prompt)
        elif self.current_player >= 0 and not self.end:
            lines.append(f"Waiting for P{self.current_player + 1} ({self.decision})")
        return "\n".join(lines)


def _describe_ctx(t: MeikyuTables, ctx: Mapping[str, Any]) -> str:
    kind = ctx["kind"]
    if kind == "quest":
        die = ctx["dice"][0]
        roll = f" + die {die} = {ctx['swords'] + die}" if die else " + a die"
        return (
            f"P{ctx['player'] + 1} quests {t.lnames[ctx['room']]} (level {ctx['level']}): "
            f"{counted(ctx['swords'], 'sword')}{roll}"
        )
    if kind == "develop":
        return (
            f"P{ctx['player'] + 1} develops {t.lnames[ctx['land']]}: {counted(ctx['wits'], 'seal')} against "
            f"{ctx['cost']}"
        )
    land = t.lnames[ctx["land"]] if ctx["land"] >= 0 else "a land of the defender's choice"
    a, d = ctx["dice"]
    att = counted(ctx["swords"], "sword") + (f" + die {a} = {ctx['swords'] + a}" if a else "")
    dfn = counted(ctx["defence"], "sword") + (f" + die {d} = {ctx['defence'] + d}" if d else "")
    return f"P{ctx['attacker'] + 1} attacks P{ctx['defender'] + 1} for {land} (by {ctx['by']}): {att} against {dfn}"


_PROMPTS = {
    A_MAIN: "quest <room> with <cards> · develop <land> with <characters> · attack P2 <land> with <cards> by Gotcha! "
    "· resupply (also: map, mixed area P2; type legal for the choices)",
    A_DEFEND: "defend with <cards>, or defend (the die alone)",
    A_AMULET: "amulet (reroll that die) or pass",
    A_CASINO: "draw (Casino: you rolled a 6) or pass",
    A_HOT: "draw (Hot Springs: your hand is empty) or pass",
    A_TOMB: "draw (from the pile) or tomb (take the top discard)",
    A_KEEP: "keep <card> (Archives)",
    A_HOSPITAL: "return <character> (Hospital) or pass",
    A_ORDER: "discard <card>: put the used cards (or a Refugee's discards) on the discard pile, one at a time "
    "(the last is on top)",
    A_HANDLIMIT: "discard <card> (down to 5 cards)",
    A_REFUGEE: "discard <card> (the Refugee: discard two)",
    A_TSUNAMI: "give <land> (Dungeon Tsunami: to the player on your left), or pass where a land received may be kept",
    A_LANDCAP: "discard land <land> (too many lands)",
    A_GIVE: "give <land> (you lost the aggression)",
    A_MIXED: "mixed area P2 (the Mixed Area, after your action) or pass",
}


def describe_legal(state: MeikyuState) -> str:
    """The legal actions, summarised for a terminal (the main action has hundreds)."""
    legal = state.legal_actions()
    from cardbase.games.meikyu.engine import ActionList

    if not isinstance(legal, ActionList) or len(legal) <= 20:
        return "legal: " + ", ".join(str(a) for a in legal)
    groups: dict[str, list[str]] = {}
    for a in legal:
        key = type(a).__name__.lower()
        groups.setdefault(key, []).append(str(a))
    parts = []
    for key, items in groups.items():
        if key in ("word", "mixedarea"):
            parts.extend(items)
        else:
            parts.append(f"{counted(len(items), f'{key} action')}, e.g. {items[0]}")
    return f"{counted(len(legal), 'legal action')}: " + "; ".join(parts)
