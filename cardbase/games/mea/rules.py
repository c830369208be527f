"""Méa's decks and rules: :class:`MeaDeck` (and a card as a game record keeps it), the rule
numbers, :class:`MeaRules` (the options the rulebook leaves open) with the per-instance tables
:class:`MeaTables` it builds once and the integer ids :class:`MeaActionIds` of its actions, and the
canonical spelling of an action typed by a player."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from operator import countOf
from typing import TYPE_CHECKING, Any, ClassVar, Self

from cardbase.errors import counted, quoted
from cardbase.games.base import InvalidRules, Rules, check_option_names, check_seed, kind_words
from cardbase.games.mea import board as B
from cardbase.games.mea.abilities import Ability, AbilityError, abilities_to_json, parse_abilities
from cardbase.games.mea.actions import Attack, Choose, MeaAction, Move, Play, Ref, Summon, parse_action
from cardbase.games.mea.cards import TILES_PER_PLAYER, MeaCard, MeaCardType
from cardbase.games.mea.codes import PHASE_NAMES, seat_name
from cardbase.names import fold

if TYPE_CHECKING:
    from cardbase.games.mea.engine import MeaState

# The rulebook's numbers (the state's, and MeaRules' defaults), and the bound of the options.
HAND_LIMIT = 11
"""Holding this many cards loses the game at once."""
MANA_MINIMUM = 3
SECOND_PLAYER_BONUS_TURNS = 3
MAX_PER_TILE = 2
MAX_OPTION_NUMBER = 10_000
"""Bound of every whole-number rules option (turn limits, tile caps): past it a game is a typo, not a variant."""
OPTION_RANGES: Mapping[str, tuple[int, int]] = {"max_turns": (1, MAX_OPTION_NUMBER), "board_size": (0, 2 * B.BOUND)}
"""The whole-number options whose range is not 0 to :data:`MAX_OPTION_NUMBER`: a game has a turn, and
the board's square is at most the engine's coordinates (0: no square). One range per option, the one
every refusal states."""


def option_range(name: str) -> tuple[int, int]:
    """The lowest and highest value whole-number option ``name`` takes."""
    return OPTION_RANGES.get(name, (0, MAX_OPTION_NUMBER))


def _out_of_range(name: str, value: int) -> InvalidRules | None:
    """The refusal of ``value`` for whole-number option ``name`` when it is out of the option's range."""
    low, high = option_range(name)
    if low <= value <= high:
        return None
    refused = InvalidRules(f"Méa option {name} must be from {low:,} to {high:,}, not {value}")
    return refused.about(name, reason=f"is not from {low:,} to {high:,}")


@dataclass(frozen=True)
class MeaDeck:
    """A deck for the engine: distinct cards with their counts, in list order."""

    name: str
    cards: tuple[tuple[MeaCard, int], ...]

    def __repr__(self) -> str:
        """Its name and size, not every card (a deck's full repr runs to thousands of characters)."""
        return f"<MeaDeck {self.name!r}: {counted(self.size, 'card')}, {len(self.cards)} distinct>"

    @property
    def size(self) -> int:
        """How many cards the deck holds, copies counted."""
        return sum(n for _, n in self.cards)

    def expanded(self) -> list[MeaCard]:
        """Every card of the deck, one entry per copy, in deck-list order."""
        return [card for card, n in self.cards for _ in range(n)]

    @property
    def unexpressed(self) -> tuple[str, ...]:
        """Names of the cards whose abilities are not expressed (they play as bare stats)."""
        return tuple(c.name for c, _ in self.cards if c.unexpressed)

    @property
    def demo_cards(self) -> int:
        """How many of the deck's cards (copies counted) are cardbase's demo cards."""
        return sum(n for c, n in self.cards if c.is_demo)

    def to_dict(self) -> dict[str, Any]:
        """The deck as JSON-able data (what a game record stores); :meth:`from_dict` reads it back."""
        return {"name": self.name, "cards": [{"count": n, **card_to_dict(c)} for c, n in self.cards]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], where: str = "deck") -> MeaDeck:
        """The deck :meth:`to_dict` wrote; :class:`InvalidRules` naming ``where`` and the field otherwise."""
        if not isinstance(data, Mapping) or not isinstance(data.get("cards"), list):
            raise InvalidRules(f"{where}: a deck is {{'name': …, 'cards': [{{'count': 3, 'name': …}}, …]}}")
        out = []
        for i, item in enumerate(data["cards"]):
            if not isinstance(item, Mapping):
                raise InvalidRules(f"{where}.cards[{i}]: a card is an object")
            count = item.get("count", 1)
            if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                raise InvalidRules(f"{where}.cards[{i}].count: a whole number 1 or more")
            out.append((card_from_dict(item, f"{where}.cards[{i}]"), count))
        return cls(str(data.get("name") or ""), tuple(out))


def card_to_dict(card: MeaCard) -> dict[str, Any]:
    """What a game record keeps of a card: enough to play it again."""
    out: dict[str, Any] = {"name": card.name, "type": str(card.type), "cost": card.cost}
    if card.type is MeaCardType.MONSTER:
        out["attack"] = card.attack
        out["defence"] = card.defence
    out["text"] = card.text
    out["abilities"] = abilities_to_json(card.abilities)
    out["set"] = card.set
    out["source"] = card.source
    return out


def card_from_dict(data: Mapping[str, Any], where: str = "card") -> MeaCard:
    """A card as a deck's :meth:`MeaDeck.to_dict` writes it; :class:`InvalidRules` naming ``where``
    and the field otherwise."""
    try:
        type_ = MeaCardType(str(data.get("type")))
    except ValueError:
        raise InvalidRules(f"{where}.type: monster or assist, not {quoted(data.get('type'))}") from None
    abilities = data.get("abilities")
    try:
        parsed = None if abilities is None else parse_abilities(abilities, str(type_), f"{where}.abilities")
    except AbilityError as error:
        raise InvalidRules(str(error)) from None
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InvalidRules(f"{where}.name: the card's name")
    values: dict[str, int | None] = {}
    for stat in ("cost", "attack", "defence"):
        v = data.get(stat)
        if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v < 0):
            raise InvalidRules(f"{where}.{stat}: a whole number 0 or more, or null (unknown)")
        values[stat] = v
    text = data.get("text")
    return MeaCard(
        name=name,
        type=type_,
        set=str(data.get("set") or "core"),
        source=str(data.get("source") or "rulebook"),
        text=text if isinstance(text, str) else None,
        abilities=parsed,
        cost=values["cost"],
        attack=values["attack"],
        defence=values["defence"],
    )


def game_card(card: MeaCard) -> MeaCard:
    """``card`` with only what a game needs (and a record keeps): no flavour, notes or aliases."""
    if card.description is None and card.copies is None and not card.aliases and card.notes is None:
        return card
    return replace(card, description=None, copies=None, aliases=(), notes=None)


@dataclass(frozen=True, slots=True)
class MeaTables:
    """Per-rules constant tables, by card instance."""

    cards: tuple[MeaCard, ...]
    owner: tuple[int, ...]
    offset: tuple[int, int]
    names: tuple[str, ...]
    cost: tuple[int, ...]
    attack: tuple[int, ...]
    defence: tuple[int, ...]
    monster: tuple[bool, ...]
    triggers: tuple[dict[str, tuple[Ability, ...]], ...]
    turn_start: tuple[tuple[Ability, ...], ...]
    summoned: tuple[tuple[Ability, ...], ...]
    turn_end: tuple[tuple[Ability, ...], ...]
    turn_start_cards: tuple[int, ...]
    """The instances with an At the start of your turn ability (likewise ``turn_end_cards``)."""
    turn_end_cards: tuple[int, ...]
    canonical: dict[str, str]
    start_tiles: dict[int, int]
    dirs: tuple[int, ...]
    attack_all: bool
    """``attack_rule == "all"``."""
    list_losing_draws: bool
    move_onto_enemy: bool
    """``move_onto_enemy == "allowed"``."""
    tile_total_filters: bool
    """``tile_attack == "filters"``."""
    colour_cap: int
    """``tiles_per_colour`` (0: no cap)."""
    obliterate_kills: bool
    """``obliterated == "killed"``."""
    first_moves_in: bool
    """``move_in == "first"``: an attack's order of attackers is part of it."""
    killed_first: bool
    """``elimination_killed == "resolved"``."""
    displaced_to_controller: bool
    """``displaced_to == "controller"``."""
    attacker_killed_first: bool
    """``killed_order == "attacker-first"``."""
    displace_beside_enemy: bool
    """``displaced_onto == "any"``: a displaced monster may go to a tile with an enemy monster on it."""
    left_play_resolves: bool
    """``left_play == "resolved"``: a monster's ability that has activated resolves after the monster left."""
    after_card: bool
    """``triggered_after == "card"``: what a card's sentence sets off waits for the card's other sentences."""
    summoned_wait: bool
    """``summoned_alone == "refused"``: a monster summoned this turn only joins a pair (no move, no lone attack)."""
    idle_given: bool
    """``cannot_act == "until-given"``: a monster taken with "It cannot move or attack this turn" can be
    given an action or an attack this turn by a later ability."""
    cells: tuple[int, ...]
    """With ``board_size``: the positions of the square the tiles stay in, in board order (a
    position's cell is its index here); else empty."""
    cell_of: dict[int, int]
    """Position → cell, for the positions of :attr:`cells`."""


@dataclass(frozen=True, slots=True)
class MeaActionIds:
    """The integer ids of Méa's actions (``MeaRules.ids()``, read-only): where each kind's block
    starts, and the tables that number names, cells and directions. Blocks, in order: ``draw``
    (k - 1), ``summon`` (monster name × cell), ``play`` (assist name), ``move`` ((cell × 2 +
    place) × direction), ``attack`` (target cell × (2·directions)², the attackers coded as
    direction × 2 + place, from the target: one attacker x is (x, x), two are (x, y), in the
    action's order under ``move_in="first"``, else the lower code first), ``flip`` and
    ``obliterate`` (cell, then none), ``choose_tile`` (cell), ``choose_monster`` (cell × 2 +
    place)."""

    cells: int
    dirs: tuple[int, ...]
    dir_index: dict[int, int]
    names: tuple[str, ...]
    """The decks' distinct card names: monsters, then assists."""
    monsters: int
    name_index: dict[str, int]
    draw: int
    summon: int
    play: int
    move: int
    attack: int
    flip: int
    obliterate: int
    choose_tile: int
    choose_monster: int
    total: int

    @classmethod
    def of(cls, tab: MeaTables, deck_max: int) -> MeaActionIds:
        """The ids of the actions of games whose instances ``tab`` tabulates, decks of at most
        ``deck_max`` cards (the draw block); what :meth:`MeaRules.ids` builds."""
        monsters = tuple(dict.fromkeys(n for n, m in zip(tab.names, tab.monster, strict=True) if m))
        assists = tuple(dict.fromkeys(n for n, m in zip(tab.names, tab.monster, strict=True) if not m))
        names = monsters + assists
        n, d = len(tab.cells), len(tab.dirs)
        sizes = [deck_max, len(monsters) * n, len(assists), n * 2 * d, n * (2 * d) ** 2, n + 1, n + 1, n, 2 * n]
        starts = [sum(sizes[:k]) for k in range(len(sizes) + 1)]
        return cls(
            cells=n,
            dirs=tab.dirs,
            dir_index={x: k for k, x in enumerate(tab.dirs)},
            names=names,
            monsters=len(monsters),
            name_index={x: k for k, x in enumerate(names)},
            draw=starts[0],
            summon=starts[1],
            play=starts[2],
            move=starts[3],
            attack=starts[4],
            flip=starts[5],
            obliterate=starts[6],
            choose_tile=starts[7],
            choose_monster=starts[8],
            total=starts[9],
        )


@dataclass(frozen=True)
class MeaRules(Rules):
    """Méa for two players, with the readings the rulebook leaves open as options.

    ``decks``: seat 0's deck (goes first, yellow) and seat 1's (blue).
    ``layout``: the starting tiles, a name (``checkerboard``, ``sides``) or a grid
    like ``BYB/YBY/BYB`` (top row first; see :func:`cardbase.games.mea.board.parse_layout`).
    ``adjacency``: ``orthogonal`` or ``diagonal`` (the 8 surrounding positions).
    ``attack_rule``: an attack is allowed if it can kill ``one`` of the enemy monsters
    on the tile (each monster with defence ≤ the attack dies), or only if it kills ``all``.
    ``move_in``: after a kill that empties the tile, ``all`` surviving attackers move in,
    or only the ``first`` of them in the action's order (``attack b2 with A@a2 + B@b1``: A
    moves in; both orders are legal actions).
    ``elimination``: a player who controls no tile loses ``immediate``-ly, or at the
    ``turn-start`` (after the start-of-turn flip).
    ``mana_count``: mana is counted at ``turn-start`` (before the flip) or ``after-flip``.
    ``mana_minimum`` (3), ``second_player_bonus`` (+1) on the second player's first
    ``bonus_turns`` (3) turns. ``tile_supply``: the most tiles on the board at once
    (18, both players' 9; 0 for no limit). ``max_turns``: a game that reaches it ends
    with the player controlling more tiles winning (a tie is shared). ``list_losing_draws``:
    also list draws that reach 11 cards (legal, but lose at once) among the legal actions.
    ``tile_attack``: the tile's total attack on the opponent's turn ("REMEMBER …") counts for
    ``retaliation`` only, or for ability ``filters`` (``attack 2 or less``) too.
    ``move_onto_enemy``: moving onto a tile with an enemy monster is ``refused`` or
    ``allowed`` (they share it; the start-of-turn flip then displaces the enemy).
    ``tiles_per_colour``: the most tiles a player may control at once (9: the tiles each
    brought; 0 for no cap); a flip or an add beyond it does not happen. ``obliterated``:
    monsters on an obliterated tile are ``removed``, or ``killed`` (When killed triggers).
    ``elimination_killed``: when a death leaves a player without tiles (``immediate``
    elimination), the game ends at once and the dead monsters' When killed abilities are
    ``skipped``, or they are ``resolved`` first and the game ends only if the player still has
    no tile. ``displaced_to``: a monster displaced from a flipped tile with nowhere to go returns
    to its ``owner``'s hand (whoever controls it), or to its ``controller``'s (a monster taken
    by "Take control" then stays with the player who took it). ``killed_order``: when an attack kills
    monsters of both players, the When killed abilities of the ``defender-first`` (the attacked
    monsters', then the attackers'), or ``attacker-first``. ``displaced_onto``: a monster displaced from
    a flipped tile goes to ``any`` adjacent tile of its side with fewer than 2 monsters, or only to one
    with ``no-enemy`` monster on it (as a move under ``move_onto_enemy="refused"``). ``left_play``: a
    monster's When summoned, At the start of your turn or At the end of your turn ability that has activated,
    when the monster leaves the board (or its control) before the ability resolves, is ``ignored``, or
    ``resolved`` for the player it activated for (what it does to "this monster" is then ignored).
    ``triggered_after``: what a sentence of a card's text sets off (When killed abilities) resolves
    right after that ``sentence``, or after the ``card``'s whole text for that trigger (a flip's
    displacement still comes at once).
    ``summoned_alone``: a monster summoned this turn moves or attacks by itself (``allowed``: "alone"
    only bars a pair of two monsters summoned this turn), or it is ``refused`` (summoning sickness:
    "they [can't] move or attack alone on this turn"; it only attacks together with a monster that was
    not summoned this turn).
    ``cannot_act``: a monster taken by a card that says "It cannot move or attack this turn" stays
    so for the ``whole-turn``, whatever a later ability gives it ("may move or attack again this
    turn", "may attack twice"), or a later ability gives it an action or an attack (``until-given``).
    ``board_size``: the tiles stay within a square of that many tiles a side around the starting
    grid (an add outside it has no place, as beyond the tile supply); 0 (the default) for the
    engine's whole board, 128 a side. The integer ids and tensors (:meth:`num_distinct_actions`)
    need a square: they number its cells.
    """

    game_id: ClassVar[str] = "mea"
    title: ClassVar[str] = "Méa"

    decks: tuple[MeaDeck, MeaDeck] = field(default=(MeaDeck("", ()), MeaDeck("", ())))
    layout: str = "checkerboard"
    adjacency: str = B.ORTHOGONAL
    attack_rule: str = "one"
    move_in: str = "all"
    elimination: str = "immediate"
    mana_count: str = "turn-start"
    mana_minimum: int = MANA_MINIMUM
    second_player_bonus: int = 1
    bonus_turns: int = SECOND_PLAYER_BONUS_TURNS
    tile_supply: int = 2 * TILES_PER_PLAYER
    max_turns: int = 200
    list_losing_draws: bool = False
    tile_attack: str = "retaliation"
    move_onto_enemy: str = "refused"
    tiles_per_colour: int = 0
    obliterated: str = "removed"
    elimination_killed: str = "skipped"
    displaced_to: str = "owner"
    killed_order: str = "defender-first"
    displaced_onto: str = "any"
    left_play: str = "ignored"
    triggered_after: str = "sentence"
    summoned_alone: str = "allowed"
    cannot_act: str = "whole-turn"
    board_size: int = 0

    option_names: ClassVar[Mapping[str, tuple[str, ...]]] = {"layout": tuple(B.LAYOUTS)}
    option_notes: ClassVar[Mapping[str, str]] = {
        "tile_supply": "0: no limit",
        "tiles_per_colour": "0: no cap",
        "board_size": "0: the whole board",
    }
    option_choices: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "adjacency": (B.ORTHOGONAL, B.DIAGONAL),
        "attack_rule": ("one", "all"),
        "move_in": ("all", "first"),
        "elimination": ("immediate", "turn-start"),
        "mana_count": ("turn-start", "after-flip"),
        "tile_attack": ("retaliation", "filters"),
        "move_onto_enemy": ("refused", "allowed"),
        "obliterated": ("removed", "killed"),
        "elimination_killed": ("skipped", "resolved"),
        "displaced_to": ("owner", "controller"),
        "killed_order": ("defender-first", "attacker-first"),
        "displaced_onto": ("any", "no-enemy"),
        "left_play": ("ignored", "resolved"),
        "triggered_after": ("sentence", "card"),
        "summoned_alone": ("allowed", "refused"),
        "cannot_act": ("whole-turn", "until-given"),
    }

    @classmethod
    def check_option(cls, name: str, value: Any) -> None:
        """As :meth:`Rules.check_option`, and a ``layout`` is a layout's name or a grid."""
        super().check_option(name, value)
        if type(value) is int and (beyond := _out_of_range(name, value)) is not None:
            raise beyond
        if name == "layout" and isinstance(value, str):
            try:
                B.parse_layout(value)
            except ValueError as error:
                raise _layout_refusal(value, error) from None

    def __post_init__(self) -> None:
        if not isinstance(self.decks, tuple) or len(self.decks) != 2:
            raise InvalidRules("Méa is for 2 players: give exactly two decks")
        decks = tuple(MeaDeck(d.name, tuple((game_card(c), n) for c, n in d.cards)) for d in self.decks)
        object.__setattr__(self, "decks", decks)  # so that to_options/from_options round-trip
        for f in fields(self):
            if f.name == "decks":
                continue
            value = getattr(self, f.name)
            want = {"bool": bool, "int": int, "str": str}[str(f.type)]
            if type(value) is not want:
                refused = InvalidRules(f"Méa option {f.name} must be {want.__name__}, not {quoted(value)}")
                raise refused.about(f.name, reason=kind_words(want))
            if f.name in self.option_choices and value not in self.option_choices[f.name]:
                choices = self.option_choices[f.name]
                refused = InvalidRules(f"Méa option {f.name} must be one of {', '.join(choices)}, not {quoted(value)}")
                raise refused.about(f.name, choices)
            if isinstance(value, int) and (beyond := _out_of_range(f.name, value)) is not None:
                raise beyond
        try:
            start = B.parse_layout(self.layout)
        except ValueError as error:
            raise _layout_refusal(self.layout, error) from None
        if self.board_size:
            width, height = B.extent(start)
            if self.board_size < max(width, height):
                refused = InvalidRules(
                    f"board_size must hold the {width}×{height} starting layout and be at most {2 * B.BOUND}, "
                    f"not {self.board_size}"
                )
                said = f"a board of size {self.board_size} cannot hold the {width}×{height} starting layout"
                raise refused.between(("board_size", "layout"), said)
        if self.tile_supply and len(start) > self.tile_supply:
            refused = InvalidRules(
                f"the layout has {counted(len(start), 'tile')}, more than tile_supply {self.tile_supply}"
            )
            said = f"the layout has {counted(len(start), 'tile')}, more than the tile supply of {self.tile_supply}"
            raise refused.between(("layout", "tile_supply"), said)
        for seat in (0, 1):
            held = countOf(start.values(), seat)
            if self.tiles_per_colour and held > self.tiles_per_colour:
                refused = InvalidRules(
                    f"the layout gives {seat_name(seat)} {counted(held, 'tile')}, "
                    f"more than tiles_per_colour {self.tiles_per_colour}"
                )
                cap = self.tiles_per_colour
                said = (
                    f"the layout gives {seat_name(seat)} {counted(held, 'tile')}, more than the "
                    f"{counted(cap, 'tile')} per colour"
                )
                raise refused.between(("layout", "tiles_per_colour"), said)
        problems = []
        for seat, deck in enumerate(self.decks):
            who = f"{seat_name(seat)}'s deck{f' ({deck.name})' if deck.name else ''}"
            if deck.size < 1:
                problems.append(f"{who} is empty")
            names: dict[str, MeaCard] = {}
            for card, _ in deck.cards:
                if card.type is MeaCardType.TILE:
                    problems.append(f"{who}: {card.name} is a tile; tiles are not part of a deck")
                    continue
                unknown = card.unknown_stats
                if unknown:
                    problems.append(f"{who}: {card.name} has unknown {', '.join(unknown)}")
                key = fold(card.name)
                if key in names and names[key] != card:
                    problems.append(f"{who}: two different cards are called {card.name}")
                names[key] = card
        if problems:
            raise InvalidRules("cannot play these decks: " + "; ".join(problems))

    @property
    def players(self) -> int:
        return 2

    @property
    def score_range(self) -> tuple[float | None, float | None]:
        """A score is the tiles a seat controls at the end: none or more."""
        return (0.0, None)

    def tables(self) -> MeaTables:
        """Per-instance constants (built once per rules object)."""
        cached = self.__dict__.get("_tables")
        if cached is None:
            cached = _build_tables(self)
            object.__setattr__(self, "_tables", cached)
        return cached

    def new_initial_state(self, seed: int | None = None) -> MeaState:
        from cardbase.games.mea.engine import MeaState  # the state is built from the rules

        return MeaState(self, check_seed(seed))

    def parse_action(self, text: str) -> MeaAction:
        tables = self.tables()
        return _canonical(_canonical_names(parse_action(text), tables.canonical), tables)

    def to_options(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": 2}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = [d.to_dict() for d in value] if f.name == "decks" else value
        return out

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Self:
        check_option_names(options, [*(f.name for f in fields(cls)), "players"], "Méa")
        values = dict(options)
        if values.pop("players", 2) != 2:
            raise InvalidRules("Méa is for 2 players")
        decks = values.pop("decks", None)
        if not isinstance(decks, list | tuple) or len(decks) != 2:
            raise InvalidRules("Méa rules need 'decks': a list of the two players' decks")
        parsed = tuple(
            d if isinstance(d, MeaDeck) else MeaDeck.from_dict(d, f"decks[{i}]") for i, d in enumerate(decks)
        )
        return cls(decks=parsed, **values)  # type: ignore[arg-type]

    # -- integer steps and tensors (see cardbase.games.base) --

    def ids(self) -> MeaActionIds:
        """Where each kind of action's integer ids start, and the tables numbering names, cells and
        directions (:class:`MeaActionIds`; built once per rules object); needs ``board_size``."""
        cached = self.__dict__.get("_ids")
        if cached is None:
            if not self.board_size:
                raise InvalidRules(
                    "Méa's integer ids and tensors number the cells of a bounded board: set board_size (e.g. 9)"
                )
            cached = MeaActionIds.of(self.tables(), max(d.size for d in self.decks))
            object.__setattr__(self, "_ids", cached)
        return cached

    def num_distinct_actions(self) -> int:
        """Draws (``draw k``: k - 1), summons (name × cell), assists (name), moves (cell × which
        of its two monsters, in arrival order × direction), attacks (target cell × the attacker's
        direction from it and place on its tile, for one attacker or two), flips and obliterations
        (cell, or none), choices (a cell, or a monster: cell × place). See :class:`MeaActionIds`."""
        return self.ids().total

    def max_chance_outcomes(self) -> int:
        """The shuffle is one step per card, both decks' in turn, top card first: the position in
        its deck list of the card that comes next."""
        return max(d.size for d in self.decks)

    def max_game_length(self) -> int:
        """The shuffle (a chance step per card), the two opening draws and up to 500 steps a turn
        (a bound no game of the shipped decks comes near: a turn's actions are limited by the cards,
        the mana and each monster's one action, but abilities that return cards and give actions
        have no bound in the rules)."""
        return self.decks[0].size + self.decks[1].size + 2 + 500 * self.max_turns

    def observation_tensor_layout(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """``tiles``: per cell of the board square (board order), mine, the other player's.
        ``monsters``: per cell and place on it (arrival order): there, controlled by me, owned by me,
        attack, defence, can move, can attack, summoned this turn. ``names``: per cell and place,
        which card (the decks' distinct names, monsters then assists). ``hand``: my hand, copies by
        name; ``out_of_play``: likewise. ``sizes``: my hand, the other hand, my deck, the other
        deck. ``mana``, ``turns`` (mine, the other's), ``phase`` (shuffle, opening, flip, main,
        choice, over), ``active`` (it is my turn), ``to_act`` (I am to act). Numbers as they are."""
        ids = self.ids()
        names = len(ids.names)
        return (
            ("tiles", (ids.cells, 2)),
            ("monsters", (ids.cells, 2, 8)),
            ("names", (ids.cells, 2, names)),
            ("hand", (names,)),
            ("out_of_play", (names,)),
            ("sizes", (4,)),
            ("mana", (1,)),
            ("turns", (2,)),
            ("phase", (len(PHASE_NAMES),)),
            ("active", (1,)),
            ("to_act", (1,)),
        )

    def unexpressed_cards(self) -> tuple[str, ...]:
        """Cards in either deck that play as their bare stats (abilities not expressed)."""
        return tuple(dict.fromkeys(n for d in self.decks for n in d.unexpressed))

    def demo_note(self) -> str | None:
        """How many of each deck's cards are cardbase's demo cards (None: no deck has one)."""
        return demo_note_of([(d.name or f"{seat_name(k)}'s deck", d) for k, d in enumerate(self.decks)])

    def bare_note(self, bare_of: Sequence[int] | None = None) -> str | None:
        """The cards that play as bare stats (``bare_of``: of these seats' decks only, what a seat may
        know of the decks; None: of both), or None."""
        return bare_note_of(self.decks if bare_of is None else [self.decks[k] for k in bare_of])

    def report_notes(self, bare_of: Sequence[int] | None = None) -> list[str]:
        """What every report using these decks must say: demo cards, bare-stats cards (see :meth:`bare_note`)."""
        return [note for note in (self.demo_note(), self.bare_note(bare_of)) if note]


def demo_note_of(decks: Sequence[tuple[str, MeaDeck]]) -> str | None:
    """How many of each ``(label, deck)``'s cards are cardbase's demo cards, each deck named once (a
    mirror match, or a deck met in several match-ups, is one entry); None: no deck has one."""
    demo = sorted(dict.fromkeys((label, d.demo_cards, d.size) for label, d in decks if d.demo_cards))
    if not demo:
        return None
    shown = ", ".join(f"{n} of {counted(size, 'card')} in {label}" for label, n, size in demo)
    return f"demo cards: {shown} (cardbase's demo set, not published Méa cards)"


def bare_note_of(decks: Sequence[MeaDeck]) -> str | None:
    """The cards of ``decks`` that play as bare stats, each once, or None."""
    bare = tuple(dict.fromkeys(n for d in decks for n in d.unexpressed))
    return f"played as bare stats (abilities not expressed as data): {', '.join(bare)}" if bare else None


def _build_tables(rules: MeaRules) -> MeaTables:
    cards: list[MeaCard] = []
    owner: list[int] = []
    offset = []
    for seat, deck in enumerate(rules.decks):
        offset.append(len(cards))
        for card in deck.expanded():
            cards.append(card)
            owner.append(seat)
    triggers = []
    for card in cards:
        by: dict[str, list[Ability]] = {}
        for a in card.abilities or ():
            by.setdefault(a.trigger, []).append(a)
        triggers.append({k: tuple(v) for k, v in by.items()})
    canonical = {fold(c.name): c.name for c in cards}
    cells = B.square(B.parse_layout(rules.layout), rules.board_size) if rules.board_size else ()
    turn_start = tuple(t.get("turn_start", ()) for t in triggers)
    turn_end = tuple(t.get("turn_end", ()) for t in triggers)
    return MeaTables(
        cards=tuple(cards),
        owner=tuple(owner),
        offset=(offset[0], offset[1]),
        names=tuple(c.name for c in cards),
        cost=tuple(c.cost or 0 for c in cards),
        attack=tuple(c.attack or 0 for c in cards),
        defence=tuple(c.defence or 0 for c in cards),
        monster=tuple(c.type is MeaCardType.MONSTER for c in cards),
        triggers=tuple(triggers),
        turn_start=turn_start,
        summoned=tuple(t.get("summoned", ()) for t in triggers),
        turn_end=turn_end,
        turn_start_cards=tuple(i for i, t in enumerate(turn_start) if t),
        turn_end_cards=tuple(i for i, t in enumerate(turn_end) if t),
        canonical=canonical,
        start_tiles=B.parse_layout(rules.layout),
        dirs=B.directions(rules.adjacency),
        attack_all=rules.attack_rule == "all",
        list_losing_draws=rules.list_losing_draws,
        move_onto_enemy=rules.move_onto_enemy == "allowed",
        tile_total_filters=rules.tile_attack == "filters",
        colour_cap=rules.tiles_per_colour,
        obliterate_kills=rules.obliterated == "killed",
        first_moves_in=rules.move_in == "first",
        killed_first=rules.elimination_killed == "resolved",
        displaced_to_controller=rules.displaced_to == "controller",
        attacker_killed_first=rules.killed_order == "attacker-first",
        displace_beside_enemy=rules.displaced_onto == "any",
        left_play_resolves=rules.left_play == "resolved",
        after_card=rules.triggered_after == "card",
        summoned_wait=rules.summoned_alone == "refused",
        idle_given=rules.cannot_act == "until-given",
        cells=cells,
        cell_of={q: k for k, q in enumerate(cells)},
    )


def _canonical(action: MeaAction, tables: MeaTables) -> MeaAction:
    """``action`` as the rules list it: an attack's attackers in board order unless the order
    is part of it (``move_in="first"``)."""
    if type(action) is Attack and not tables.first_moves_in:
        return action.in_board_order()
    return action


def _canonical_names(action: MeaAction, canonical: Mapping[str, str]) -> MeaAction:
    """``action`` with card names spelt as the cards are (any case or accents typed)."""

    def nm(n: str) -> str:
        return canonical.get(fold(n), n)

    def rf(r: Ref) -> Ref:
        return Ref(nm(r[0]), r[1], r[2])

    if isinstance(action, Summon):
        return Summon(nm(action[1]), action[2])
    if isinstance(action, Play):
        return Play(nm(action[1]))
    if isinstance(action, Move):
        return Move(rf(action[1]), action[2])
    if isinstance(action, Attack):
        return Attack(action[1], [rf(r) for r in action[2]])
    if isinstance(action, Choose) and isinstance(action[1], Ref):
        return Choose(rf(action[1]))
    return action


def _layout_refusal(layout: str, error: ValueError) -> InvalidRules:
    """A ``layout`` the board does not read (``error`` says why) as the refusal of the option."""
    why = str(error).removeprefix(f"layout {quoted(layout)}: ")
    return InvalidRules(f"Méa option layout: {error}").about("layout", reason=f"is not a layout: {why}")
