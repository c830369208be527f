"""cardbase's three games for OpenSpiel, and through Shimmy for PettingZoo and Gymnasium.

Install the extra (``uv sync --extra spiel``, or ``pip install 'cardbase[spiel]'``), then::

    import pyspiel
    import cardbase.spiel  # registers cardbase_meio, cardbase_mea and cardbase_meikyu

    game = pyspiel.load_game("cardbase_meio(players=3)")
    state = game.new_initial_state()

A thin adapter over the engine protocol's integer steps (:mod:`cardbase.games.base`): an
OpenSpiel action is one step. Most of an engine's actions are one step; a deal or a shuffle is
one chance step per card, and a Meikyu card set is a step for what it is for, then one per card,
then ``done``. The engine's state moves by whole actions, so its history stays a cardbase game
record (:func:`record_lines`, :func:`from_record`).

``apply_action`` checks its id against the node's legal steps (:class:`IllegalStep`, a
``ValueError`` naming the id, and the state unchanged); ``apply_unchecked`` is the fast path for
an id just taken from ``legal_actions()`` or ``chance_outcomes()``, as the engines' own
``apply_unchecked`` is. A node's legal steps and chance outcomes are computed once, when first
asked (for the check if not before), and the lists handed out are copies.

What each toolkit reads:

- ``information_state_string(p)`` is seat ``p``'s knowledge as the engine keys it
  (:meth:`~cardbase.games.base.State.information_state_key`: its observation, with the steps it
  has taken towards its next action): equal strings give equal legal actions, so OpenSpiel's
  ``ISMCTSBot`` can key its tree by it. It is what the seat sees now, not a perfect-recall history.
- ``observation_tensor(p)`` is the engine's tensor, laid out as
  ``rules.observation_tensor_layout()`` says (the observer's ``dict`` names the pieces).
- No information-state tensor (``provides_information_state_tensor`` False):
  ``information_state_tensor(p)`` is ``pyspiel.SpielError``, as for OpenSpiel's own games
  without one. OpenSpiel's information state is perfect recall (all the seat has seen and
  done, in a fixed size: Kuhn poker's card and betting sequence); the engines encode what a
  seat sees now, and a perfect-recall tensor of games hundreds of steps long, a Méa board each,
  would be megabytes a state. Toolkits that read a tensor (Shimmy's PettingZoo wrapper, the RL
  environment) take the observation tensor.
- ``returns()``: at the end, 1 shared by the winners (a shared victory splits it), 0 to the rest;
  0 to all before the end (a constant-sum game with a terminal reward).
- ``resample_from_infostate(p, sampler)`` deals the cards ``p`` cannot see with the engine's own
  sampler (the one cardbase's search agents use).

Parameters: every rules option of the game that is a number, a word or yes/no, by its own name
(``docs/rules/<game>.md`` explains each), and:

- ``cardbase_meio``: ``players`` (2-4).
- ``cardbase_mea``: ``deck0``, ``deck1`` (deck files or the names of decks in the database; seat 0
  goes first), ``db`` (the database URL or SQLite file; empty: cardbase's default),
  ``drop_unknown`` (leave out cards whose stats are unknown), ``board_size`` (the board is kept
  within a square of that many tiles a side around the starting grid, so that every tile has a
  fixed id; 9 by default).
- ``cardbase_meikyu``: ``players`` (2-5), ``assume`` (an assumption profile completing the values
  the rulebook does not give: a shipped name or a file; empty: none), ``db`` (empty: the shipped
  catalog; else a database whose imported values are used), ``set``.

A value a parameter does not take is a ``ValueError`` naming the game and the parameter (a file
parameter's file is read only if it is a regular file within its bound). OpenSpiel holds a whole
number in 32 bits: one past 2**31 - 1 is refused by OpenSpiel's own reading of the parameters
(``SpielError``, or pybind11's ``RuntimeError`` for a ``dict``), before the game sees it.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import fields, is_dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any

import numpy as np

from cardbase.errors import counted, plural

try:
    import pyspiel
except ImportError as missing:  # the optional extra
    raise ModuleNotFoundError(
        "cardbase.spiel needs OpenSpiel, which comes with the spiel extra: "
        "uv run --extra spiel …, or pip install 'cardbase[spiel]'",
        name="pyspiel",
    ) from missing

from cardbase.games.base import (
    CHANCE,
    TERMINAL,
    CheckedSteps,
    GameError,
    IllegalAction,
    InvalidAction,
    Rules,
    State,
    check_steps,
)

if TYPE_CHECKING:
    from cardbase.db.engine import Database
    from cardbase.sim.records import GameRecord

NO_INFORMATION_STATE_TENSOR = (
    "{game} offers no information-state tensor (provides_information_state_tensor is False): "
    "OpenSpiel's information state is perfect recall, all a seat has seen and done, and these games "
    "encode only what the seat sees now; use observation_tensor(player), or "
    "information_state_string(player) as a key"
)
"""Why ``information_state_tensor()`` is refused (OpenSpiel's own games without one refuse it too)."""

MEA_BOARD_SIZE = 9
"""The default ``board_size`` of ``cardbase_mea``: a 9×9 square around the 3×3 starting grid."""

_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_first = itemgetter(0)


def _rule_defaults(game_id: str, skip: Sequence[str] = ()) -> dict[str, Any]:
    """The game's rules options that are yes/no, a whole number or a word, with their defaults: the
    player count and those ``--rule`` sets (one reading of the rules class, the simulator's registry's,
    for every surface)."""
    from cardbase.sim.registry import game

    entry = game(game_id)
    cls = entry.rules_class()
    players: dict[str, Any] = (
        {f.name: f.default for f in fields(cls) if f.name == "players"} if is_dataclass(cls) else {}
    )
    options = {name: default for name, (_, default) in entry.rule_defaults().items() if name not in skip}
    return {**players, **options}


def _meio_rules(params: Mapping[str, Any]) -> Rules:
    from cardbase.games.meio.rules import MeioRules

    return MeioRules(**params)


def _meio_defaults() -> dict[str, Any]:
    return _rule_defaults("meio")


def _mea_defaults() -> dict[str, Any]:
    return {
        "deck0": "",
        "deck1": "",
        "db": "",
        "drop_unknown": False,
        **_rule_defaults("mea", skip=("board_size",)),
        "board_size": MEA_BOARD_SIZE,
    }


def _mea_rules(params: Mapping[str, Any]) -> Rules:
    from pathlib import Path

    from cardbase.games.mea.rules import MeaRules
    from cardbase.sim.mea import load_deck

    options = dict(params)
    paths = (options.pop("deck0"), options.pop("deck1"))
    db = options.pop("db") or None
    drop = options.pop("drop_unknown")
    if not all(paths):
        raise ValueError("needs deck0 and deck1: deck files, or the names of decks in the database")
    with _database(db) as database:
        decks = []
        for name, path in zip(("deck0", "deck1"), paths, strict=True):
            with _parameter(name):
                decks.append(load_deck(database, Path(path), drop, drop_hint=_DROP_HINT).deck)
    return MeaRules(decks=(decks[0], decks[1]), **options)


_DROP_HINT = "set drop_unknown=true to leave it out"
"""How a ``cardbase_mea`` caller leaves out a card of unknown stats (the CLI's words name its flag)."""


@contextmanager
def _parameter(name: str) -> Iterator[None]:
    """Whatever the value of parameter ``name`` is refused for (a file that is a FIFO, a folder or
    over its bound, a deck with unknown cards, a database that cannot be read) as a ``ValueError``
    naming the parameter: the one way every parameter that names a file or a database is refused."""
    from cardbase.errors import CardbaseError

    try:
        yield
    except (CardbaseError, ValueError, OSError) as error:
        raise ValueError(f"{name}: {error}") from None


@contextmanager
def _database(db: str | None) -> Iterator[Database]:
    """The database at ``db`` (cardbase's default if None), closed after use; one that cannot be
    opened or read is a ``ValueError`` naming the ``db`` parameter."""
    from cardbase.db.engine import open_database
    from cardbase.errors import DatabaseError

    with _parameter("db"):
        database = open_database(db)
    try:
        yield database
    except DatabaseError as error:
        raise ValueError(f"db: {error}") from None
    finally:
        database.engine.dispose()


def _meikyu_defaults() -> dict[str, Any]:
    return {"assume": "default", "db": "", "set": "core", **_rule_defaults("meikyu")}


def _meikyu_rules(params: Mapping[str, Any]) -> Rules:
    from cardbase.errors import quoted
    from cardbase.games.meikyu.engine import MeikyuRules
    from cardbase.sim.meikyu import catalog_cards, resolve

    options = dict(params)
    assume = options.pop("assume") or None
    db = options.pop("db")
    set_code = options.pop("set")
    if db:
        with _database(db) as database:
            cards = catalog_cards(database, set_code)
        where = "in the database"
    else:
        from cardbase.catalog.meikyu_profiles import shipped_cards

        shipped = shipped_cards()
        cards = [c for c in shipped if c.set == set_code]
        where = f"(sets: {', '.join(sorted({c.set for c in shipped}))})"
    if not cards:
        raise ValueError(f"set: no Meikyu cards in set {quoted(set_code)} {where}")
    with _parameter("assume"):
        pool = resolve(cards, assume)
    return MeikyuRules(pool=pool, **options)


GAMES: dict[str, tuple[str, str, Callable[[], dict[str, Any]], Callable[[Mapping[str, Any]], Rules]]] = {
    "cardbase_meio": ("meio", "Meio", _meio_defaults, _meio_rules),
    "cardbase_mea": ("mea", "Méa: The Tiled Kingdom", _mea_defaults, _mea_rules),
    "cardbase_meikyu": ("meikyu", "Meikyu Kingdom Card Game: Make You Conquest", _meikyu_defaults, _meikyu_rules),
}
"""OpenSpiel's name → (cardbase's game id, title, the parameters' defaults, rules from the parameters)."""

_PLAYERS = {"meio": (2, 4), "mea": (2, 2), "meikyu": (2, 5)}


def game_type(short_name: str) -> pyspiel.GameType:
    """The OpenSpiel game type of ``short_name`` (one of :data:`GAMES`)."""
    game_id, title, defaults, _ = GAMES[short_name]
    low, high = _PLAYERS[game_id]
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"cardbase {title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults(),
    )


class IllegalStep(IllegalAction):
    """An OpenSpiel action id that is not a legal step at this node (``apply_action`` with an id
    ``legal_actions()`` does not list); a ``ValueError``. ``step`` is the id."""

    def __init__(self, step: int, player: int, legal: Sequence[int]):
        shown = ", ".join(map(str, legal[:12])) + (", …" if len(legal) > 12 else "")
        who = "chance" if player == CHANCE else "the game is over" if player == TERMINAL else f"player {player}"
        super().__init__(
            f"action id {step} is not a legal step here ({who}; legal: {shown or 'none'})", "legal-step", player
        )
        self.step = step


class _Held:
    """The engine's state, the steps taken towards its next action, and this node's legal
    steps (``legal``) and chance outcomes (``chance``) once asked; copied by ``clone``."""

    __slots__ = ("chance", "legal", "prefix", "shared", "state", "unchecked")

    def __init__(self, state: State, prefix: CheckedSteps, shared: bool = False):
        self.state = state
        self.prefix = prefix
        self.legal: list[int] | None = None
        self.chance: list[tuple[int, float]] | None = None
        self.unchecked = False
        self.shared = shared  # the game's initial node, read by every new state until it moves

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        copy = _Held(self.state.clone(), CheckedSteps(self.prefix))
        copy.legal = self.legal
        copy.chance = self.chance
        return copy

    def legal_ids(self) -> list[int]:
        """This node's legal steps (chance steps at a chance node), computed once."""
        legal = self.legal
        if legal is None:
            state = self.state
            if state.current_player == CHANCE:
                legal = [i for i, _ in self.chance_ids()]
            else:
                legal = state.legal_ids(self.prefix)
            self.legal = legal
        return legal

    def chance_ids(self) -> list[tuple[int, float]]:
        """This node's chance outcomes, computed once."""
        chance = self.chance
        if chance is None:
            chance = self.chance = self.state.chance_ids(self.prefix)
        return chance

    def own(self) -> _Held:
        """This held state, or a copy of it to move if it is the game's shared initial node."""
        return self.__deepcopy__({}) if self.shared else self

    def check(self, step: int) -> None:
        """:class:`IllegalStep` unless ``step`` is among this node's legal steps."""
        legal = self.legal
        chance = self.chance
        if legal is not None:
            ok = step in legal
        elif chance is not None:  # ascending ids: a binary search, a scan if it misses
            at = bisect_left(chance, step, key=_first)
            ok = (at < len(chance) and chance[at][0] == step) or step in dict(chance)
        else:
            ok = step in self.legal_ids()
        if not ok:
            raise IllegalStep(step, self.state.current_player, self.legal_ids())


class CardbaseGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no types
    """One of cardbase's games as an OpenSpiel game; ``rules`` is the engine's rules object."""

    short_name = ""

    def __init__(self, params: Mapping[str, Any] | None = None):
        _, _, defaults, make = GAMES[self.short_name]
        values = {**defaults(), **dict(params or {})}
        unknown = sorted(set(values) - set(defaults()))
        if unknown:
            raise ValueError(f"{self.short_name}: no parameter {unknown[0]!r} (known: {', '.join(sorted(defaults()))})")
        try:
            rules = make(values)
            sizes = (rules.num_distinct_actions(), rules.max_chance_outcomes(), rules.max_game_length())
        except (GameError, ValueError, TypeError, OSError) as error:  # Méa's sizes need a board_size
            raise ValueError(f"{self.short_name}: {error}") from None
        self.rules = rules
        info = pyspiel.GameInfo(
            num_distinct_actions=sizes[0],
            max_chance_outcomes=sizes[1],
            num_players=rules.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            # Shimmy's PettingZoo wrapper ends an episode once it has counted more nodes than
            # this, the first node and chance nodes included: one more than the steps.
            max_game_length=sizes[2] + 1,
        )
        super().__init__(game_type(self.short_name), info, dict(params or {}))
        # New states read this until their first step: OpenSpiel's clone of a Python state makes
        # a new initial state and then replaces its fields, so a new state should cost nothing.
        # Its seed is None: OpenSpiel deals (chance_outcomes), not a seed, so the engine's own
        # record (record_lines(rules, seed, history)) replays.
        self.initial = _Held(rules.new_initial_state(None), CheckedSteps(), shared=True)

    def new_initial_state(self) -> CardbaseState:
        return CardbaseState(self)

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        """Pickled as its name and parameters, loaded again as ``pyspiel.load_game`` loads it (as
        OpenSpiel's own games pickle)."""
        return (pyspiel.load_game, (self.short_name, self.get_parameters()))

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Mapping[str, Any] | None = None
    ) -> Observer:
        """OpenSpiel's observer: the observation tensor and text, or with ``perfect_recall`` the
        information-state key as text (:class:`Observer`); observation parameters are refused."""
        if params:
            raise ValueError(f"observation parameters are not supported, not {dict(params)!r}")
        perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        return Observer(self.rules, perfect_recall, self.short_name)


class CardbaseState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no types
    """An OpenSpiel state over an engine state (``engine``) and the steps taken towards its next action."""

    def __init__(self, game: CardbaseGame, engine: State | None = None, prefix: Sequence[int] = ()):
        super().__init__(game)
        if engine is not None and type(prefix) is not CheckedSteps:
            check_steps(engine, prefix)
        self._held = game.initial if engine is None else _Held(engine, CheckedSteps(prefix))

    @property
    def engine(self) -> State:
        """The engine's state (it moves by whole actions)."""
        held = self._held = self._held.own()
        return held.state

    @property
    def prefix(self) -> tuple[int, ...]:
        """The steps taken towards the next action."""
        return tuple(self._held.prefix)

    # Python callers reach these without a round trip through OpenSpiel's C++ (which calls
    # back into Python for each): the same answers, at half the cost of a random game.

    def current_player(self) -> int:
        p = self._held.state.current_player
        return _TERMINAL if p == TERMINAL else p

    def is_chance_node(self) -> bool:
        return self._held.state.current_player == CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        held = self._held
        if player is not None and player != held.state.current_player:
            return []
        legal = held.legal
        return (held.legal_ids() if legal is None else legal)[:]

    def _legal_actions(self, player: int) -> list[int]:
        return self.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        held = self._held
        chance = held.chance
        return (held.chance_ids() if chance is None else chance)[:]

    def _apply_action(self, step: int) -> None:
        # OpenSpiel's apply_action calls this: checked unless apply_unchecked asked otherwise.
        held = self._held
        if held.shared:
            held = self._held = held.own()
        if held.unchecked:
            held.unchecked = False
        else:
            legal = held.legal  # ascending (OpenSpiel's rule): a binary search
            if legal is not None:
                at = bisect_left(legal, step)
                if at == len(legal) or legal[at] != step:
                    held.check(step)
            elif (chance := held.chance) is not None:  # (the outcomes asked: as check reads them)
                at = bisect_left(chance, step, key=_first)
                if at == len(chance) or chance[at][0] != step:
                    held.check(step)
            else:
                held.check(step)
        # Take the step (inlined: the hot path of every OpenSpiel user).
        prefix = held.prefix
        prefix.append(step)
        held.legal = None
        held.chance = None
        state = held.state
        action = state.action_from_ids(prefix)
        if action is not None:
            state.apply_unchecked(action)
            held.prefix = CheckedSteps()

    def apply_unchecked(self, step: int) -> None:
        """``apply_action`` without the check that ``step`` is legal: the fast path, only for an id
        taken from ``legal_actions()`` or ``chance_outcomes()`` of this node; any other id leaves
        the state undefined. ``apply_action`` checks (:class:`IllegalStep`); the check costs a
        membership test once the legal steps are known."""
        held = self._held = self._held.own()
        held.unchecked = True
        try:
            self.apply_action(step)
        finally:
            held.unchecked = False

    def _action_to_string(self, player: int, step: int) -> str:
        # Any id in range reads as text (OpenSpiel prints whole policies so), legal here or not.
        held = self._held
        state = held.state
        chance = state.current_player == CHANCE
        size = state.rules.max_chance_outcomes() if chance else state.rules.num_distinct_actions()
        if not 0 <= step < size:
            kind = "chance outcome" if chance else "player action"
            raise InvalidAction(f"action id {step} is not a {kind} of this game (0 to {size - 1})")
        return state.step_text(held.prefix, step)

    def is_terminal(self) -> bool:
        return self._held.state.current_player == TERMINAL  # (the engines' is_terminal)

    def returns(self) -> list[float]:
        state = self._held.state
        outcome = state.outcome()
        n = state.rules.players
        if outcome is None:
            return [0.0] * n
        share = 1.0 / len(outcome.winners)
        return [share if p in outcome.winners else 0.0 for p in range(n)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> CardbaseState:
        rng = random.Random(int(probability_sampler() * 2**53))
        held = self._held
        world = held.state.resample_from_infostate(player_id, rng)
        return CardbaseState(self.get_game(), world, held.prefix)

    def __repr__(self) -> str:
        """``<cardbase_meio move 5: player 0 to act>``: the game, OpenSpiel's move number, the node."""
        held = self._held
        p = held.state.current_player
        node = "chance" if p == CHANCE else "over" if p == TERMINAL else f"player {p}"
        steps = f" ({counted(len(held.prefix), 'step')} of its action taken)" if held.prefix else ""
        what = f"returns {self.returns()}" if p == TERMINAL else f"{node} to act{steps}"
        return f"<{self.get_game().get_type().short_name} move {self.move_number()}: {what}>"

    def __str__(self) -> str:
        held = self._held
        lines = [str(a) for a in held.state.history]
        if held.prefix:
            lines.append("steps: " + " ".join(map(str, held.prefix)))
        return "\n".join(lines)


class Observer:
    """OpenSpiel's observer (``make_py_observer``): the engine's observation tensor, its pieces
    named in ``dict``, and its observation described as text; with ``perfect_recall`` (what
    OpenSpiel's information state is) the seat's information-state key as text and no tensor
    (``tensor`` None, ``dict`` empty, :meth:`set_from` refused: see :data:`NO_INFORMATION_STATE_TENSOR`)."""

    def __init__(self, rules: Rules, perfect_recall: bool, short_name: str = ""):
        self.perfect_recall = perfect_recall
        self.short_name = short_name
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        self.tensor: np.ndarray[Any, Any] | None = None
        if perfect_recall:
            return
        layout = rules.observation_tensor_layout()
        self.tensor = np.zeros(rules.observation_tensor_size(), np.float32)
        at = 0
        for name, shape in layout:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size

    def set_from(self, state: CardbaseState, player: int) -> None:
        """Write seat ``player``'s observation tensor of ``state`` into :attr:`tensor` (and so
        :attr:`dict`); an information-state observer has none (``pyspiel.SpielError``)."""
        if self.tensor is None:
            raise pyspiel.SpielError(NO_INFORMATION_STATE_TENSOR.format(game=self.short_name or "this game"))
        held = state._held
        self.tensor[:] = held.state.observation_tensor(player, held.prefix)

    def string_from(self, state: CardbaseState, player: int) -> str:
        """Seat ``player``'s view of ``state`` as text: its information-state key, or its observation described."""
        held = state._held
        if self.perfect_recall:
            return held.state.information_state_key(player, held.prefix)
        text: str = held.state.observation(player).describe()
        return text


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for short_name in GAMES:
        if short_name in registered:
            continue
        cls = type(f"Game_{short_name}", (CardbaseGame,), {"short_name": short_name})
        pyspiel.register_game(game_type(short_name), cls)


_register()


# --- game records, either way -------------------------------------------------------------


def record_lines(state: CardbaseState, agents: Sequence[str] | None = None) -> list[str]:
    """The cardbase game record (JSON Lines, as ``sim --records`` writes and ``cardbase replay``
    reads) of the actions ``state`` has completed. Its seed is null and every chance action is
    written out: the deals came from OpenSpiel, not from a seed."""
    from cardbase.sim.records import record_lines as lines_of

    engine = state.engine
    return lines_of(engine.rules, None, engine.history, agents)


def from_record(game: CardbaseGame, record: GameRecord | str | Sequence[str]) -> CardbaseState:
    """The OpenSpiel state a cardbase game record reaches: the record (a ``GameRecord``, or its JSON
    Lines as :func:`record_lines` gives them, one text or a list of lines) replayed (every action
    checked; an illegal one is :class:`~cardbase.errors.InvalidRecord`), then each action's steps
    applied to a new state of ``game``, whose rules must be the record's. An action the record
    takes out of turn (a Meio split, :meth:`~cardbase.games.base.State.actor`) waits for its
    player's turn: OpenSpiel's steps are the current player's, and the state reached is the same.
    Text that is no record is a ``ValueError`` naming ``record``; anything else, a ``TypeError``."""
    from cardbase.errors import InvalidRecord
    from cardbase.sim.records import replay

    record = _one_record(record)
    if record.game != game.rules.game_id:
        raise InvalidRecord(record.source, f"a {record.game} record, not a {game.rules.game_id} game")
    options = game.rules.to_options()
    if record.rules != options:
        differ = [
            f"{name} {_shown(record.rules.get(name))} in the record, {_shown(options.get(name))} here"
            for name in [*options, *(n for n in record.rules if n not in options)]
            if record.rules.get(name) != options.get(name)
        ]
        raise InvalidRecord(record.source, f"the record's rules are not those of {game}: {'; '.join(differ)}")
    played = replay(record)
    state = game.new_initial_state()
    waiting: list[Any] = []
    for action in played.state.history:
        if _out_of_turn(state, action):
            waiting.append(action)
            continue
        _apply_steps(state, action)
        while ready := [a for a in waiting if not _out_of_turn(state, a)]:
            waiting.remove(ready[0])
            _apply_steps(state, ready[0])
    return state


def _one_record(record: object) -> GameRecord:
    """``record`` as a ``GameRecord``: itself, or the one record its text holds (read as ``replay``
    reads a file, within the same bound)."""
    from cardbase.errors import plural
    from cardbase.sim.records import MAX_RECORD_BYTES, GameRecord, parse_records

    if isinstance(record, GameRecord):
        return record
    lines = record if isinstance(record, list | tuple) and all(isinstance(line, str) for line in record) else None
    if not isinstance(record, str) and lines is None:
        raise TypeError(f"record: a cardbase GameRecord or its JSON Lines, not {type(record).__name__}")
    text = record if isinstance(record, str) else "\n".join(lines or ())
    if len(text) > MAX_RECORD_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_RECORD_BYTES:
        raise ValueError(f"record: a game record is at most {MAX_RECORD_BYTES:,} {plural(MAX_RECORD_BYTES, 'byte')}")
    with _parameter("record"):
        records = parse_records(text)
    if len(records) != 1:
        raise ValueError(f"record: one game record, not {len(records)}")
    return records[0]


def _shown(value: Any) -> str:
    """An option's value in a refusal: short, a deck or a card pool by its size."""
    if value is None:
        return "none"
    text = repr(value)
    return text if len(text) <= 40 else f"(a value of {len(text):,} {plural(len(text), 'character')})"


def _out_of_turn(state: CardbaseState, action: Any) -> bool:
    engine = state.engine
    return engine.actor(action) != engine.current_player


def _apply_steps(state: CardbaseState, action: Any) -> None:
    for step in state.engine.action_ids(action):
        state.apply_action(step)


__all__ = [
    "GAMES",
    "CardbaseGame",
    "CardbaseState",
    "IllegalStep",
    "Observer",
    "from_record",
    "game_type",
    "record_lines",
]
