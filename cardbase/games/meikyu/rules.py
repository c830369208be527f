"""Meikyu's rules options (``--rule`` readings where the rulebook is ambiguous, the goal, the
turn limit, the card pool with its assumption profile); see ``docs/rules/meikyu.md``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Self

from cardbase.errors import counted, quoted
from cardbase.games.base import (
    InvalidRules,
    Outcome,
    Rules,
    check_option_names,
    check_seed,
)
from cardbase.games.meikyu.actions import MeikyuAction
from cardbase.games.meikyu.codes import _CONTEXT_KINDS, B_BAR, B_HAREM, DECISIONS, END_LIMIT, END_POINTS, END_ROOMS
from cardbase.games.meikyu.pool import CardPool

if TYPE_CHECKING:  # the state and the tables are built from the rules, which name them lazily
    from cardbase.games.meikyu.engine import MeikyuState
    from cardbase.games.meikyu.tables import MeikyuTables

PLAYER_COUNTS = (2, 3, 4, 5)
READINGS: dict[str, tuple[str, ...]] = {
    "farm": ("lands", "points"),
    "aggression_target": ("attacker", "defender"),
    "map_room": ("stays", "discarded"),
    "refugee": ("apart", "land"),
    "casino": ("final", "every"),
    "grimoire": ("one", "stack"),
    "sword": ("stack", "one"),
    "fortress": ("quests", "aggressions"),
    "open_draw": ("counts", "replaced"),
    "castle_tsunami": ("passes", "stays"),
    "tsunami_landless": ("none", "may-pass"),
    "tsunami_pass": ("held", "any"),
    "amulet_ask": ("holders", "everyone"),
    "amulet_first_roll": ("no", "yes"),
    "bar": ("owner", "everyone"),
    "bar_zero": ("printed", "after-items"),
    "harem": ("owner", "everyone"),
    "goal_check": ("end", "reached"),
    "refugee_order": ("turn", "drawer"),
    "mixed_area": ("before", "any"),
    "sixth_land": ("held", "any"),
    "redeal": ("each", "together"),
}
GOAL = 10
MAX_LANDS = 5
HAND_LIMIT = 5
DEAL = 4
ROOMS = 4
MAX_OPTION_NUMBER = 10_000
"""Bound of the goal and the turn limit: past it a game is a typo, not a variant."""


# --- rules -------------------------------------------------------------------------


@dataclass(frozen=True)
class MeikyuRules(Rules):
    """Meikyu Kingdom for 2–5 players with a resolved card pool and the readings the
    rulebook leaves open as options.

    ``farm``: the Farm's "+1 Capacity" adds a point (``points``) or raises the land limit
    to 6 (``lands``). ``aggression_target``: the attacker names the land at stake
    (``attacker``), or a beaten defender chooses which land to give (``defender``).
    ``map_room``: the Map's extra room stays face up after the turn (``stays``) or is
    discarded if nobody took it (``discarded``, before step 4 refills the rooms).
    ``refugee``: a Refugee is not a land (``apart``) or counts as one for the land limit
    and the most-lands tie-break (``land``). ``casino``: the Casino draws for a 6 as the
    die stands after any Amulet rerolls (``final``) or for every 6 rolled, one rerolled
    away included (``every``). ``grimoire``: each Grimoire goes on a character of its own
    (``one``), or several may go on one character, each adding its seals (``stack``).
    ``sword``: several Swords may go on one character, each adding +1 (``stack``), or each Sword goes
    on a character of its own (``one``: no more Swords than characters in a set of cards).
    ``fortress``: the Fortress's +2 for two or more characters counts in quests only
    (``quests``), or in aggressions too, attacking and defending (``aggressions``).
    ``open_draw``: an OPEN card drawn was the draw (``counts``), or after it is played its
    drawer draws again in its place (``replaced``). ``castle_tsunami``: Dungeon Tsunami may pass
    the Castle Tower (``passes``) or not (``stays``: its holder passes another land, or none).
    ``tsunami_landless``: Dungeon Tsunami's "If a player has no Claimed Lands at the time this card is
    initially activated, they do not have to pass a land": such a player passes nothing (``none``), or
    may pass, at their place in the order, a land received by then, or keep it (``may-pass``).
    ``tsunami_pass``: Dungeon Tsunami's "All players must choose one of their Claimed Lands, and pass it to the
    player on their left. The person who draws this card goes first": a player passes one of the lands she held
    when the card was played (``held``), or, at her place in the order, any land she holds then, one just
    received included (``any``: the passing goes round one player after another).
    ``amulet_ask``: after a die, the players holding an Amulet are asked whether to play it
    (``holders``: quick, but whoever is asked is seen to hold one), or every player in turn
    order, whether a die finds an Amulet in any hand or not (``everyone``: those without one may
    only pass, and nobody learns who holds one, as at a real table).
    ``amulet_first_roll``: the Amulet may be played after the dice of a quest or an aggression
    only (``no``: the first-player roll is setting up, not a turn), or after a first-player roll
    too (``yes``: "when anyone has just rolled a die"; the Amulet goes to the discard pile).
    ``bar``, ``harem``: a developed Bar (0-sword characters +1) and a developed Harem (developments
    cost 1 less) help their owner (``owner``), or every player once any kingdom holds one
    developed (``everyone``: the cards say "all characters", "any land", and name no owner).
    ``bar_zero``: the developed Bar's "characters with 0 swords" are those printed with 0 Bravery
    (``printed``: a Sword or a Grimoire on one does not take the Bar's +1 away), or those left with 0
    swords after the Swords and Grimoires played on them (``after-items``; the engine places the
    items as the player best would, so that as few 0-sword characters as it pays lose the +1).
    ``goal_check``: the End of the Game's condition A ("the sum of all of one kingdom's lands equals ten
    or more") read as it stands at the end of the turn (``end``), or met at any moment of the turn
    (``reached``: a kingdom that reached the goal, within its land limit, ends the game after that turn
    even if it fell below by its end).
    ``refugee_order``: a Refugee drawn out of its drawer's turn (a defender's Casino draw): the drawer
    chooses the two cards to discard and the player whose turn it is the order they go on the discard
    pile ("decided by the player whose turn it currently is", asked as for the used cards: only while a
    Tomb can still come into play and the two differ) (``turn``), or the drawer chooses both (``drawer``).
    ``mixed_area``: the Mixed Area's "On your turn you may discard this land" read as a free play before the
    action only (``before``), or at any moment of the turn (``any``: before the action, and once more after it,
    before step 3, when the player owns a Mixed Area then, one taken or received during the action too).
    ``sixth_land``: "If a player takes a sixth land into the kingdom, she must discard one of the existing
    lands": one of the lands held before the new one (``held``), or any of the six, the new one included
    (``any``: a land just taken, stolen or received may be the one discarded); never the Castle Tower.
    ``redeal``: the deal's "If one of the players starts out with one of the special-action "OPEN" cards, that
    person will return all their cards to the pile and draw four new cards" with two or more such players: one
    at a time, in seat order (``each``: a later one still holds her deal while the first draws anew), or all
    return their cards first, then each draws four in seat order (``together``).
    ``turn_limit``: a safeguard that is not in the rulebook: the game stops after this many
    turns (the report says so).
    """

    game_id: ClassVar[str] = "meikyu"
    option_choices: ClassVar[Mapping[str, tuple[str, ...]]] = READINGS
    title: ClassVar[str] = "Meikyu Kingdom"
    lower_is_better: ClassVar[bool] = False

    pool: CardPool
    players: int = 4
    farm: str = "points"
    aggression_target: str = "attacker"
    map_room: str = "stays"
    refugee: str = "apart"
    casino: str = "final"
    grimoire: str = "one"
    sword: str = "stack"
    fortress: str = "quests"
    open_draw: str = "counts"
    castle_tsunami: str = "passes"
    tsunami_landless: str = "none"
    tsunami_pass: str = "held"
    amulet_ask: str = "holders"
    amulet_first_roll: str = "no"
    bar: str = "owner"
    bar_zero: str = "printed"
    harem: str = "owner"
    goal_check: str = "end"
    refugee_order: str = "turn"
    mixed_area: str = "before"
    sixth_land: str = "held"
    redeal: str = "each"
    goal: int = GOAL
    turn_limit: int = 1000

    def __post_init__(self) -> None:
        if not isinstance(self.pool, CardPool):
            raise InvalidRules("Meikyu needs a card pool (resolved from the catalog, or --assume PROFILE)")
        if type(self.players) is not int or self.players not in PLAYER_COUNTS:
            raise InvalidRules(f"Meikyu is for 2 to 5 players, not {self.players}")
        for name, choices in READINGS.items():
            if getattr(self, name) not in choices:
                raise InvalidRules(
                    f"Meikyu option {name} must be one of {', '.join(choices)}, not {quoted(getattr(self, name))}"
                ).about(name, choices)
        for name in ("goal", "turn_limit"):
            value = getattr(self, name)
            if type(value) is not int or not 1 <= value <= MAX_OPTION_NUMBER:
                raise InvalidRules(
                    f"Meikyu option {name} must be a whole number from 1 to {MAX_OPTION_NUMBER:,}, not {quoted(value)}"
                ).about(name, reason=f"is not a whole number from 1 to {MAX_OPTION_NUMBER:,}")
        pool = self.pool
        if pool.land_count < ROOMS:
            raise InvalidRules(f"the card pool has {counted(pool.land_count, 'land')}; at least {ROOMS} are needed")
        plain = sum(k.copies for k in pool.kingdom if k.type != "open")
        if plain < DEAL * self.players + 1:
            raise InvalidRules(f"the card pool has {plain} Kingdom cards besides OPEN cards; too few to deal")
        if not any(k.type == "character" and k.copies for k in pool.kingdom):
            raise InvalidRules("the card pool has no character cards")

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without :attr:`tables` (made again from the rules when next asked for)."""
        return {name: value for name, value in self.__dict__.items() if name != "tables"}

    @cached_property
    def tables(self) -> MeikyuTables:
        """Per-card look-up tables, interned actions and memos (shared by equal rules):
        :class:`~cardbase.games.meikyu.tables.MeikyuTables` says which parts are for reading."""
        key = (self.pool, self.players, self.grimoire, self.sword, self.fortress, self.bar_zero)
        from cardbase.games.meikyu.tables import _TABLES, MeikyuTables  # the tables read the rules

        tables = _TABLES.get(key)
        if tables is None:
            if len(_TABLES) > 64:
                _TABLES.clear()
            tables = _TABLES[key] = MeikyuTables(self)
        return tables

    def new_initial_state(self, seed: int | None = None) -> MeikyuState:
        from cardbase.games.meikyu.engine import MeikyuState

        return MeikyuState(self, check_seed(seed))

    def parse_action(self, text: str) -> MeikyuAction:
        from cardbase.games.meikyu.notation import parse_action

        return parse_action(self, text)

    def to_options(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": self.players}
        for f in fields(self):
            if f.name not in ("pool", "players"):
                out[f.name] = getattr(self, f.name)
        out["pool"] = self.pool.to_dict()
        return out

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Self:
        check_option_names(options, (f.name for f in fields(cls)), "Meikyu")
        if "pool" not in options:
            raise InvalidRules(
                "Meikyu needs a card pool: resolve it from the catalog (cardbase sim meikyu lists what is "
                "missing) or with an assumption profile (--assume default)"
            )
        values = dict(options)
        if not isinstance(values["pool"], CardPool):
            try:
                values["pool"] = CardPool.from_dict(values["pool"])
            except ValueError as error:
                raise InvalidRules(f"Meikyu card pool: {error}") from None
        return cls(**values)

    # -- integer steps and tensors (see cardbase.games.base) --

    def num_distinct_actions(self) -> int:
        """One-step actions, the steps that start a card set and the card steps: see :class:`StepIds`."""
        return self.tables.ids.total

    def max_chance_outcomes(self) -> int:
        """A card drawn (its kind), a room turned up (its kind) or a die (its value - 1)."""
        t = self.tables
        return max(t.K, t.L, 6)

    def max_game_length(self) -> int:
        """Up to 1,000 steps a turn, player and chance (a turn's decisions are bounded by the cards
        of the pool, each card set by the hand, its chance steps by its draws and rolls; no game of
        the shipped pool comes near it)."""
        return 1000 * self.turn_limit

    def observation_tensor_layout(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """Seats counted from the viewer's (0: the viewer, 1: the next in turn order …); cards by
        kind (K of them: ``tables.knames``), lands by kind (L: ``tables.lnames``), counts as they
        are. ``hand`` (K): my cards; ``hand_sizes`` (n); ``lands`` and ``developed`` (n × L): each
        kingdom's undeveloped and developed lands; ``refugees``, ``points``, ``skips`` (turns to
        lose) (n each); ``rooms``, ``mapped`` (L each): the face-up rooms (a Map's extra room);
        ``discards``, ``in_play`` (K each), ``meikyu_discards`` (L); ``archives`` (K): the two cards
        the Archives drew, if mine to see; ``piles`` (2): the Kingdom and Meikyu piles' sizes;
        ``decision``: what is waited for, one-hot over every decision code (:data:`DECISIONS`, 19:
        "mixed area" among them, which only ``mixed_area="any"`` asks, so the layout is the same
        under either reading); ``current``, ``turn`` (n each): who acts, whose turn; ``action``
        (5): the action under way (quest, develop, attack, resupply, lost turn), its ``dice`` (2 ×
        6: the attacker's, the defender's, one-hot 1-6) and ``numbers`` (3: swords, defence,
        level); what my steps so far choose a card set for: ``composing`` (4: quest, attack,
        develop, defend), ``composing_place`` (L: the room or land), ``composing_seat`` (n),
        ``composing_way`` (the ways of attacking), ``composing_cards`` (K) and ``composing_lab``
        (K: the item played as a character); ``turns`` (1): turns finished."""
        t = self.tables
        n, k, lands, ways = self.players, t.K, t.L, t.ids.ways
        return (
            ("hand", (k,)),
            ("hand_sizes", (n,)),
            ("lands", (n, lands)),
            ("developed", (n, lands)),
            ("refugees", (n,)),
            ("points", (n,)),
            ("skips", (n,)),
            ("rooms", (lands,)),
            ("mapped", (lands,)),
            ("discards", (k,)),
            ("in_play", (k,)),
            ("meikyu_discards", (lands,)),
            ("archives", (k,)),
            ("piles", (2,)),
            ("decision", (len(DECISIONS),)),
            ("current", (n,)),
            ("turn", (n,)),
            ("action", (len(_CONTEXT_KINDS),)),
            ("dice", (2, 6)),
            ("numbers", (3,)),
            ("composing", (4,)),
            ("composing_place", (lands,)),
            ("composing_seat", (n,)),
            ("composing_way", (ways,)),
            ("composing_cards", (k,)),
            ("composing_lab", (k,)),
            ("turns", (1,)),
        )

    @property
    def assumed(self) -> tuple[str, ...]:
        """Each value the assumption profile gave, not the rulebook, named as ``"Bee bravery"``."""
        return self.pool.assumed

    def report_notes(self) -> list[str]:
        """What every report of a game under these rules must say: which values are assumed."""
        if not self.pool.assumed:
            return []
        from cardbase.games.meikyu.pool import assumed_census, assumed_summary

        return [
            f"ASSUMED VALUES: {assumed_census(self.pool.assumed)} come from the assumption profile "
            f"{quoted(self.pool.profile)}, not from the rulebook or the catalog: "
            + "; ".join(assumed_summary(self.pool.assumed))
        ]

    @property
    def score_range(self) -> tuple[float | None, float | None]:
        """A score is a kingdom's points at the end: none or more."""
        return (0.0, None)

    def capacity(self, has_farm: bool) -> int:
        """The most lands a kingdom may own (one more with the Farm under ``farm=lands``)."""
        return MAX_LANDS + (1 if has_farm and self.farm == "lands" else 0)

    @property
    def refugees_are_lands(self) -> bool:
        """Whether Refugees count as lands (the land limit, the most-lands tie-break)."""
        return self.refugee == "land"


def shared_developed(rules: MeikyuRules, deffs: Sequence[int], seat: int) -> int:
    """The developed-land bits that count for ``seat`` (``deffs``: every seat's): its own, and
    the Bar's and the Harem's of any kingdom under ``bar="everyone"`` / ``harem="everyone"``."""
    deff = deffs[seat]
    if rules.bar == "everyone" or rules.harem == "everyone":
        anyone = 0
        for d in deffs:
            anyone |= d
        if rules.bar == "everyone":
            deff |= anyone & B_BAR
        if rules.harem == "everyone":
            deff |= anyone & B_HAREM
    return deff


def lands_held(rules: MeikyuRules, lands: Sequence[int], refugees: Sequence[int]) -> int:
    """Lands for the land limit and the tie-break: the Meikyu lands, and the Refugees under ``refugee="land"``."""
    return len(lands) + len(refugees) if rules.refugees_are_lands else len(lands)


def final_outcome(rules: MeikyuRules, end: str, points: Sequence[int], land_counts: Sequence[int]) -> Outcome:
    """How a finished game ended (``end``: why): the most points wins, then the most lands
    (``land_counts``, as :meth:`MeikyuState.land_count` counts them); still tied, a shared victory."""
    n = len(points)
    scores = tuple(float(p) for p in points)
    best = max(scores)
    top = [s for s in range(n) if scores[s] == best]
    reason = {
        END_POINTS: f"a kingdom reached {counted(rules.goal, 'point')}",
        END_ROOMS: "no Meikyu rooms were left to conquer",
        END_LIMIT: f"the turn limit ({counted(rules.turn_limit, 'turn')}, not in the rulebook) was reached",
    }[end]
    if len(top) > 1:
        most = max(land_counts[s] for s in top)
        top = [s for s in top if land_counts[s] == most]
        reason += "; tied on points, most lands wins"
        if len(top) > 1:
            reason += "; still tied: a shared victory"
    return Outcome(winners=tuple(top), scores=scores, reason=reason, lower_is_better=False)
