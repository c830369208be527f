"""What the three games share: the game ids, where a card's data came from, and the
engine protocol every rules engine implements."""

from __future__ import annotations

import math
import operator
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Protocol, Self, TypeVar, runtime_checkable

from cardbase.errors import counted, plural, quoted


class GameId(StrEnum):
    """The games cardbase knows."""

    MEA = "mea"
    MEIO = "meio"
    MEIKYU = "meikyu"

    @property
    def title(self) -> str:  # type: ignore[override]  # the game's title, deliberately not str.title()
        return GAME_TITLES[self]


GAME_TITLES: dict[GameId, str] = {
    GameId.MEA: "Méa: The Tiled Kingdom",
    GameId.MEIO: "Meio",
    GameId.MEIKYU: "Meikyu Kingdom Card Game: Make You Conquest",
}

# Where a card's values came from. Imported cards carry "file:<name of the file>".
SOURCE_RULEBOOK = "rulebook"
SOURCE_DEMO = "demo"
SOURCE_FILE_PREFIX = "file:"


def is_demo(card: object) -> bool:
    """Whether ``card`` (a catalog row) is one of the cards made for cardbase, not a published card."""
    return getattr(card, "source", None) == SOURCE_DEMO


# ---------------------------------------------------------------------------
# The engine protocol shared by every game's rules engine.
#
# Shaped after OpenSpiel (a rules object apart from the states it makes;
# ``current_player``, ``legal_actions``, ``apply``, chance nodes, per-player
# observations) and python-chess (small immutable action values with a notation
# that parses back; one ``ValueError`` subclass per kind of error).
#
# For other toolkits (OpenSpiel, PettingZoo through Shimmy; :mod:`cardbase.spiel`)
# every engine also speaks in integer *steps*. An action is taken in one step or
# several, each an id with a fixed count: player steps run 0 …
# ``rules.num_distinct_actions() - 1``, chance steps 0 … ``rules.max_chance_outcomes()
# - 1``. Most actions are one step; a deal or a shuffle is one step per card (as
# OpenSpiel's hearts deals), and a choice of several cards (Meikyu's quests) is one
# step per card after the step that says what they are for. ``state.legal_ids(prefix)``
# lists the steps that may follow ``prefix`` (the steps taken so far towards the next
# action), ``state.action_from_ids(steps)`` is the action they complete (``None`` until
# then) and ``state.action_ids(action)`` its steps, so a game record converts either
# way. The state itself moves only by whole actions: its history and records are
# unchanged. ``information_state_key(seat)`` names what a seat knows (equal keys, equal
# legal steps), ``observation_tensor(seat)`` is it as numbers, and
# ``resample_from_infostate(seat, rng)`` deals a world consistent with it.
# ---------------------------------------------------------------------------

CHANCE = -1
"""``State.current_player`` at a chance node (a deal, a die roll)."""

TERMINAL = -2
"""``State.current_player`` once the game is over."""

SPECTATOR = -3
"""The viewer who is no player: ``state.observation(SPECTATOR)`` holds only what every player
sees (no hand, no pile's order), and ``state.action_text(action, viewer=SPECTATOR)`` hides
what a player would hide from the others."""


def to_act(player: int) -> str:
    """Who acts, as a state's repr says it: the seat's number, ``chance`` or ``nobody (over)``."""
    return "chance" if player == CHANCE else "nobody (over)" if player == TERMINAL else str(player)


class GameError(ValueError):
    """Base of the engine's errors, one class per kind, each a ``ValueError`` whose message names
    the action, step, seat, field or option refused (``cardbase.errors`` draws the CLI's own)::

        GameError (ValueError)
        ├── InvalidAction     a text that is no action of the game (bad notation), or a step id
        │                     that is none of the node's (``state.legal_ids([-1])``)
        ├── IllegalAction     a well-formed action the rules forbid now, the game over included;
        │   │                 ``rule`` names the rule (``"follow-suit"``, ``"game-over"``)
        │   └── IllegalStep   (``cardbase.spiel``) an OpenSpiel action id that is no legal step at
        │                     the node: ``apply_action``'s check
        ├── InvalidPosition   a position set up from a description that is none (``position``,
        │                     ``from_parts``, the set-up methods), or a card instance the game lacks
        │                     where one is taken (Méa's ``attack_of``); ``rule`` names the field or rule
        ├── InvalidSeat       a seat the game does not have, wherever a seat is taken
        ├── InvalidRules      an option or player count the game does not have
        └── InvalidSeed       a seed no game record can hold (``new_initial_state("x")``)

    An ``assert``, ``KeyError``, ``IndexError`` or ``TypeError`` out of an engine's public method is a
    bug in cardbase, whatever the argument."""


class InvalidAction(GameError):
    """A text that is not an action of this game at all (bad notation)."""


class IllegalAction(GameError):
    """A well-formed action that the rules forbid now; the message names the rule.

    ``rule`` is a short stable identifier of the rule (``"follow-suit"``), for
    tests and tools; ``str(error)`` is the sentence a player reads.
    """

    def __init__(self, message: str, rule: str = "", player: int | None = None):
        super().__init__(message)
        self.rule = rule
        self.player = player


class InvalidPosition(GameError):
    """A position set up from a description (``position(...)``, ``from_parts``, the set-up methods)
    that is none: a card the game does not have, more copies than it has, a field of the wrong
    form (the message begins with the field: ``hands[0]: …``), or a position the rules make
    impossible, which no game played by them reaches (the message names the rule). ``rule`` is a
    short stable identifier (``"card"``, ``"copies"``, ``"land-limit"``), as :class:`IllegalAction`'s."""

    def __init__(self, message: str, rule: str = ""):
        super().__init__(message)
        self.rule = rule


def check_seats(what: str, given: Sequence[object], players: int, exactly: bool = False) -> None:
    """A position's per-seat description ``what`` is a list (or tuple) of entries, one per seat, and
    gives no more seats than the game has (and, if ``exactly``, as many): else
    :class:`InvalidPosition` (rule ``"seat"``)."""
    if isinstance(given, str) or not isinstance(given, Sequence):
        raise InvalidPosition(f"{what} is a list with an entry per seat, not {quoted(given)}", "seat")
    if len(given) > players or (exactly and len(given) != players):
        seats = counted(len(given), "seat")
        raise InvalidPosition(f"{what} gives {seats}; a {players}-player game has {players}", "seat")


def check_names(what: str, names: object, optional: bool = False) -> None:
    """A position's list of card names ``what`` is a list (or tuple), not a text, which would be read
    letter by letter (``"Wall"`` as W, a, l, l), nor anything else (``None`` only if ``optional``):
    else :class:`InvalidPosition` (rule ``"names"``)."""
    if optional and names is None:
        return
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise InvalidPosition(f"{what} is a list of card names, not {quoted(names)}", "names")


def check_mapping(what: str, value: object, of: str) -> None:
    """A position's mapping ``what`` (``of`` says of what: "tiles to card names") is one: else
    :class:`InvalidPosition` (rule ``"names"``)."""
    if not isinstance(value, Mapping):
        raise InvalidPosition(f"{what} maps {of}, not {quoted(value)}", "names")


class InvalidSeat(GameError):
    """A seat the game does not have, given where a seat is taken (:func:`check_seat`): a number
    outside 0 … players - 1, or a value that is no seat number (a bool, a float)."""


class InvalidRules(GameError):
    """A variant option or player count that the game does not have. The message names options by
    their ids, as ``--rule`` takes them; what a face says them from is data: one option's value
    refused carries the option (:attr:`option`), the words it takes (:attr:`choices`) or what is wrong
    with the value (:attr:`reason`); options that contradict each other carry them (:attr:`options`)
    and the refusal in words (:attr:`said`)."""

    option: str | None = None
    choices: tuple[str, ...] = ()
    reason: str | None = None
    """What is wrong with :attr:`option`'s value, in words that name no option, said after the value
    (``is not from 1 to 100``)."""
    options: tuple[str, ...] = ()
    said: str | None = None

    def about(self, option: str, choices: Sequence[str] = (), reason: str | None = None) -> Self:
        """This refusal, of option ``option``'s value, which is not one of ``choices`` (none: not a list
        of words), or of which ``reason`` says what is wrong (``is not a whole number``)."""
        self.option, self.choices, self.reason = option, tuple(choices), reason
        return self

    def between(self, options: Sequence[str], said: str) -> Self:
        """This refusal, of the values of ``options`` together (each may be right alone), said in
        words naming each option as :func:`option_words` does (``said``)."""
        self.options, self.said = tuple(options), said
        return self


def option_words(option: str) -> str:
    """A rules option's id as words (``tile_supply`` → ``tile supply``): how a person reads it."""
    return option.replace("_", " ")


def kind_words(kind: type) -> str:
    """What a rules option of ``kind`` takes, said after its value (``is not a whole number``)."""
    return "is not yes or no" if kind is bool else "is not a whole number" if kind is int else "is not a text"


def check_option_names(options: object, known: Iterable[str], title: str) -> None:
    """What :meth:`Rules.from_options` reads first: ``options`` is a mapping, and names only options
    in ``known`` (``title`` names the game); else :class:`InvalidRules` saying which."""
    if not isinstance(options, Mapping):
        raise InvalidRules(f"{title} options are a mapping of option names to values, not {quoted(options)}")
    names = set(known)
    unknown = sorted((name for name in options if name not in names), key=str)
    if unknown:
        raise InvalidRules(f"unknown {title} option {quoted(unknown[0])} (known: {', '.join(sorted(names))})")


class InvalidSeed(GameError):
    """A seed that is not a whole number from 0 to :data:`MAX_SEED` (nor ``None``): one a game record
    cannot hold (:func:`check_seed`)."""


MAX_SEED = 2**64 - 1
"""The largest seed: what a game record holds (``cardbase sim --seed`` and the web take the same)."""


def whole_index(value: object) -> int | None:
    """``value`` as an ``int`` if it is a whole number (an ``int``, a NumPy integer: anything with
    ``__index__``) and not a bool (``True`` is 1 to Python, never meant as a number here); else
    ``None``. The one reading of a number that every check of a seed, seat, step or card takes."""
    if type(value) is int:
        return value
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        return None
    return operator.index(value)  # type: ignore[arg-type]


def check_seed(seed: object) -> int | None:
    """A game's seed, ``None`` or a whole number from 0 to :data:`MAX_SEED` (what its record can hold),
    as an ``int`` (a NumPy integer is one); else :class:`InvalidSeed`, a ``ValueError``."""
    if seed is None:
        return None
    number = whole_index(seed)
    if number is not None and 0 <= number <= MAX_SEED:
        return number
    raise InvalidSeed(f"a seed is a whole number from 0 to 2**64 - 1, or None, not {quoted(seed)}")


MAX_NOTATION = 200_000
"""The longest text read as an action. The longest a game writes is a Méa shuffle of two
10,000-card decks (about 100,000 characters); a longer text is refused before it is read."""


MAX_CARD_NAME = 200
"""The longest card name an action may give (the catalog's own bound on names)."""


def check_card_name(name: str) -> str:
    """``name``, if no longer than any card's (:data:`MAX_CARD_NAME`); else :class:`InvalidAction`."""
    if len(name) > MAX_CARD_NAME:
        raise InvalidAction(
            f"no card has a name of {len(name):,} {plural(len(name), 'character')} (at most {MAX_CARD_NAME})"
        )
    return name


def check_notation(text: str) -> str:
    """``text``, if it is not too long to be an action (:data:`MAX_NOTATION`); else :class:`InvalidAction`."""
    if len(text) > MAX_NOTATION:
        raise InvalidAction(f"an action is at most {MAX_NOTATION:,} characters; this text has {len(text):,}")
    return text


def is_whole_number(text: str) -> bool:
    """Whether ``text`` is written as a whole number: ASCII digits, with a ``-`` in front at most (the
    one spelling the command line, the web's addresses and :func:`whole_number` read: never ``1_0``,
    ``+1``, `` 1``, ``1.0`` or ``٣``, which ``int()`` and Pydantic's lax mode would)."""
    digits = text[1:] if text.startswith("-") else text
    return digits.isascii() and digits.isdecimal()


def whole_number(text: str, most: int) -> int | None:
    """``text`` read as a whole number from 0 to ``most``, if it is written in ASCII digits and
    is one; else ``None`` (``int()`` would read the digits of every script, ``٣`` or ``３`` as 3). A
    text of more digits than ``most`` has is not converted at all (``int()`` refuses more than 4,300
    digits, and is slow work below that for a number refused anyway)."""
    if not (text.isascii() and text.isdecimal()) or len(text.lstrip("0")) > len(str(most)):
        return None
    number = int(text.lstrip("0") or "0")
    return number if number <= most else None


DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
"""A number with a fraction as it is written: ASCII digits, a point, an exponent (``2``, ``0.5``,
``1e-2``). ``float()`` also reads ``1_0`` as 10, ``٣`` as 3, `` nan`` and ``inf``."""

MAX_DECIMAL_CHARS = 40
"""The length of the longest number with a fraction read from text."""


def decimal_number(text: str) -> float | None:
    """``text`` (spaces around it aside) read as a finite number if it is written as :data:`DECIMAL`
    in at most :data:`MAX_DECIMAL_CHARS` characters; else ``None``. The one reading of a number with
    a fraction that the command line's options and the agents' options take."""
    text = text.strip()
    if len(text) > MAX_DECIMAL_CHARS or not DECIMAL.fullmatch(text):
        return None
    number = float(text)
    return number if math.isfinite(number) else None


@runtime_checkable
class Action(Protocol):
    """An action: a small immutable, hashable value; ``str(action)`` is its notation.

    ``rules.parse_action(str(action)) == action`` for every action a state can
    produce.
    """

    def __hash__(self) -> int: ...

    def __str__(self) -> str: ...


SAID_SHARED = re.compile(r"[:;,]\s*(?:a\s+)?shared (?:victory|result)$")
"""How a shared victory's reason ends, as the games word it (Méa's "…: a shared result", Meio's
"…: shared victory", Meikyu's "…; still tied: a shared victory"); records keep it so."""


def reason_beside_winners(reason: str, shared: bool) -> str:
    """``Outcome.reason`` as said after its winners ("P1 and P4 share the victory: …"): the ending
    of a shared victory's reason that says so again is left out there, so each fact is said once."""
    return SAID_SHARED.sub("", reason) if shared else reason


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``scores`` has one number per seat: an ``int`` in Meio (card points, as ``round_scores``), a
    ``float`` holding a whole number in Méa (tiles) and Meikyu (points), as their game records
    have always written them. ``lower_is_better`` says which way wins. ``winners`` holds every seat
    that shares the victory. ``round_scores`` (one tuple per round) is empty for games without
    rounds.
    """

    winners: tuple[int, ...]
    scores: tuple[int | float, ...]
    reason: str
    lower_is_better: bool = False
    round_scores: tuple[tuple[int | float, ...], ...] = ()

    @property
    def shared(self) -> bool:
        """Whether several seats share the victory."""
        return len(self.winners) > 1

    def to_dict(self) -> dict[str, Any]:
        """The outcome as JSON-able data (what records and ``--json`` write)."""
        return {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "reason": self.reason,
            "lower_is_better": self.lower_is_better,
            "round_scores": [list(r) for r in self.round_scores],
        }


class Observation(Protocol):
    """What one player may see of a state; never holds another player's hidden cards."""

    @property
    def player(self) -> int:
        """The seat that sees this, or :data:`SPECTATOR`."""
        ...

    def describe(self) -> str:
        """A plain-text view for a terminal, several lines."""
        ...


class Rules(ABC):
    """A game's rules: the player count and variant options; makes initial states.

    Rules objects are immutable and JSON-friendly: ``to_options()`` and
    ``from_options()`` round-trip, which is what a game record stores.
    """

    game_id: ClassVar[str]
    option_choices: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    """The options that take one of a few words (name → the words, the default first among them
    or not): what a form offers as a list and ``--rule`` completes."""
    option_names: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    """The names a text option takes besides a text of its own (Méa's ``layout``: a layout's name, or
    a grid): what a form and ``--rule`` offer for it, and the help names."""
    option_notes: ClassVar[Mapping[str, str]] = {}
    """A few words beside an option whose value reads oddly on its own (a 0 that means none, a seat
    counted from 0), as a form shows it."""

    @property
    @abstractmethod
    def players(self) -> int:
        """Number of seats, numbered 0 … players-1."""

    @property
    def score_range(self) -> tuple[float | None, float | None]:
        """The least and the most a seat's final score (:attr:`Outcome.scores`) can be, None where the
        rules set no bound: a mean score's interval stays inside it."""
        return (None, None)

    @abstractmethod
    def new_initial_state(self, seed: int | None = None) -> State:
        """A new game. Its chance events draw from ``random.Random(seed)``.

        With ``seed=None`` the state still owns an RNG (seeded from the OS),
        but a caller that wants a given deal or roll applies the chance action
        itself (a game played at a real table).
        """

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """The action written as ``text``; raises :class:`InvalidAction`."""

    @abstractmethod
    def to_options(self) -> dict[str, Any]:
        """The options as a JSON-able mapping (including ``players``)."""

    @classmethod
    @abstractmethod
    def from_options(cls, options: Mapping[str, Any]) -> Self:
        """Rules from ``to_options()`` output; raises :class:`InvalidRules`."""

    @classmethod
    def option_words(cls, name: str) -> tuple[str, ...]:
        """The words option ``name`` takes by name: its :attr:`option_choices`, or the
        :attr:`option_names` a text option also takes; none for a number, yes/no or free text."""
        return tuple(cls.option_choices.get(name) or cls.option_names.get(name, ()))

    @classmethod
    def check_option(cls, name: str, value: Any) -> None:
        """Refuse a value of option ``name`` that these rules take with no other options whatever
        (a word not among its :attr:`option_choices`); raises :class:`InvalidRules`. What depends on
        the other options too is checked by :meth:`from_options`. A command checks each option it is
        given with this as it reads it, so that the refusal names where the value was given."""
        choices = cls.option_choices.get(name)
        if choices is not None and value not in choices:
            raise InvalidRules(f"{name} must be one of {', '.join(choices)}, not {quoted(value)}").about(name, choices)

    # -- integer steps and tensors, for other toolkits (see the top of this section) --

    @abstractmethod
    def num_distinct_actions(self) -> int:
        """How many player step ids there are: each is from 0 to this - 1."""

    @abstractmethod
    def max_chance_outcomes(self) -> int:
        """How many chance step ids there are: each is from 0 to this - 1."""

    @abstractmethod
    def max_game_length(self) -> int:
        """An upper bound of the steps in one game, player and chance steps together (toolkits size
        buffers by it; Shimmy's PettingZoo wrapper cuts a game off there, counting both)."""

    @abstractmethod
    def observation_tensor_layout(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """The pieces of :meth:`State.observation_tensor`, in order: (name, shape). The tensor
        is their values flattened one after the other."""

    def observation_tensor_size(self) -> int:
        """The length of :meth:`State.observation_tensor`."""
        return sum(math.prod(shape) for _, shape in self.observation_tensor_layout())


class State(ABC):
    """A point in one game. Mutable: ``apply`` changes it in place; ``clone`` copies.

    ``current_player`` is a seat (0 …), :data:`CHANCE` or :data:`TERMINAL`.
    ``history`` lists every action applied, chance actions included, so a
    state is rebuilt from (rules, seed, history).
    """

    __slots__ = ()

    rules: Rules
    rng: random.Random
    seed: int | None
    current_player: int
    history: list[Any]

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over (``current_player == TERMINAL``)."""
        return self.current_player == TERMINAL

    @property
    def is_chance_node(self) -> bool:
        """Whether chance acts next (``current_player == CHANCE``): a deal, a shuffle, a die."""
        return self.current_player == CHANCE

    @abstractmethod
    def legal_actions(self) -> Sequence[Any]:
        """The current player's legal actions, in a fixed order; cheap to call.

        May be a lazy sequence (``len`` and indexing without building every
        action). Empty when the game is over. At a chance node: the outcomes
        of :meth:`chance_outcomes`, or empty if they are too many to list.
        """

    @abstractmethod
    def check(self, action: Any) -> None:
        """Raise :class:`IllegalAction` (naming the rule) unless ``action`` is legal now: one of
        :meth:`legal_actions`, or an action another seat may take out of turn (:meth:`actor` names
        that seat; Meio's split), which ``legal_actions`` (the current player's) does not list."""

    @abstractmethod
    def apply_unchecked(self, action: Any) -> None:
        """Apply ``action`` without checking it: the fast path for simulation.

        Only for actions taken from ``legal_actions()`` or ``sample_chance()``, or that
        :meth:`check` accepted; anything else leaves the state undefined.
        """

    def apply(self, action: Any) -> None:
        """Check ``action`` (raising :class:`IllegalAction`) and apply it."""
        self.check(action)
        self.apply_unchecked(action)

    def is_legal(self, action: Any) -> bool:
        """Whether ``action`` is legal now (:meth:`check` accepts it)."""
        try:
            self.check(action)
        except IllegalAction:
            return False
        return True

    def parse_action(self, text: str, seat: int | None = None) -> Any:
        """``text`` as an action, read in the context of this state (may accept
        shorthand the context makes unambiguous); raises :class:`InvalidAction`.
        ``seat``: the player the text is by, when the caller knows it (a record's line names
        it); shorthand that reads a player's cards reads theirs (default: the current player's)."""
        if seat is not None:
            check_seat(seat, self.rules.players)
        return self.rules.parse_action(text)

    def apply_text(self, text: str) -> Any:
        """Parse ``text``, check it and apply it; returns the action."""
        action = self.parse_action(text)
        self.apply(action)
        return action

    def chance_outcomes(self) -> Sequence[tuple[Any, float]] | None:
        """At a chance node: ``(action, probability)`` pairs, or ``None`` if too many to list."""
        return None

    @abstractmethod
    def sample_chance(self) -> Any:
        """At a chance node: an outcome drawn from this state's ``rng``."""

    def resolve_chance(self) -> None:
        """Apply sampled chance outcomes until a player (or the end) is to act."""
        while self.current_player == CHANCE:
            self.apply_unchecked(self.sample_chance())

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The outcome once the game is over, else ``None``."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy (RNG state included)."""

    @abstractmethod
    def observation(self, player: int) -> Observation:
        """What ``player`` can see now; hides every other player's hidden cards.
        :data:`SPECTATOR` sees only what is public (every hand hidden). A seat the game does not
        have, or a bool, is :class:`InvalidSeat` (:func:`check_seat`, as every method taking a seat)."""

    def action_text(self, action: Any, viewer: int | None = None) -> str:
        """How ``action``, about to be applied here, reads to ``viewer`` (``None``:
        to an all-seeing record). Games hide what the viewer may not see."""
        return str(action)

    def actor(self, action: Any) -> int:
        """The seat that takes ``action`` here: the current player, unless the game lets a player
        take it out of turn (Meio's split, which every player makes with their own hand, in no
        order); records and replays name that seat."""
        return self.current_player

    def wrong_player(self, action: Any, seat: int) -> str:
        """Why ``seat`` may not take ``action`` here, when :meth:`actor` gives it to another seat: what
        a replay says of a record that names ``seat`` for it (the game says what is expected when
        its rules let a player act out of turn, as Meio's split)."""
        seat = check_seat(seat, self.rules.players)
        return f"it is P{self.current_player + 1}'s turn, not P{seat + 1}'s"

    def out_of_turn_refusal(self, action: Any) -> IllegalAction:
        """Why the current player may not take ``action``, which :meth:`actor` gives to another
        seat: a table refuses it so (a seat acts for itself only), worded as the game's refusal of
        the current player's own attempt so that it tells nothing hidden."""
        return IllegalAction(f"{action} is not yours to take", "not-yours", self.current_player)

    # -- integer steps and tensors, for other toolkits (see the top of this section) --

    @abstractmethod
    def legal_ids(self, prefix: Sequence[int] = ()) -> list[int]:
        """The steps that may follow ``prefix`` towards the next action, ascending: the
        current player's, or at a chance node the chance steps. Empty once the game is over, and
        after the steps of a whole action. A step that is no id of the node is :class:`InvalidAction`
        (:func:`check_steps`, as every method here that takes steps)."""

    @abstractmethod
    def chance_ids(self, prefix: Sequence[int] = ()) -> list[tuple[int, float]]:
        """At a chance node: the chance steps that may follow ``prefix``, with their
        probabilities (they sum to 1), ascending; empty elsewhere, and after a whole action's steps."""

    @abstractmethod
    def action_from_ids(self, ids: Sequence[int]) -> Any | None:
        """The action that the steps ``ids`` (legal ones, from this state) complete, or
        ``None`` while they are only its beginning; steps that go on past the action they complete
        are :class:`IllegalAction` (rule ``"steps"``). Whether each step is legal after the ones
        before it is not checked (``legal_ids`` says)."""

    @abstractmethod
    def action_ids(self, action: Any) -> tuple[int, ...]:
        """The steps that take ``action``, which ``action_from_ids`` turns back into it; checked as
        :meth:`apply` checks: what is no legal action here is :class:`IllegalAction` naming the rule."""

    def step_text(self, prefix: Sequence[int], step: int) -> str:
        """How the step ``step`` after ``prefix`` reads: the action it completes, else what
        it adds (``+ Bee``)."""
        action = self.action_from_ids((*prefix, step))
        return str(action) if action is not None else f"step {step}"

    @abstractmethod
    def information_state_key(self, seat: int, prefix: Sequence[int] = ()) -> str:
        """What ``seat`` knows now, as text (with the steps ``prefix`` taken towards the
        action being chosen): two states with equal keys give ``seat`` the same legal steps,
        and a state from :meth:`resample_from_infostate` has the same key."""

    @abstractmethod
    def observation_tensor(self, seat: int, prefix: Sequence[int] = ()) -> list[float]:
        """What ``seat`` sees now as numbers, laid out as ``rules.observation_tensor_layout()``
        says; like :meth:`observation`, it holds no card hidden from ``seat``."""

    @abstractmethod
    def resample_from_infostate(self, seat: int, rng: random.Random) -> State:
        """A state ``seat`` cannot tell from this one (equal :meth:`information_state_key`):
        what it cannot see dealt at random from ``rng``, consistently with what it has seen.
        Its history is empty and its RNG fresh: for search, not for records."""


# -- what the engines' integer steps and tensors share --


def ids_without_choice(state: State, prefix: Sequence[int]) -> list[int] | None:
    """:meth:`State.legal_ids` where no player chooses: none once the game is over, the chance
    steps (:meth:`State.chance_ids`) at a chance node; ``None`` when a player is to choose."""
    p = state.current_player
    if p == TERMINAL:
        return []
    if p == CHANCE:
        return [i for i, _ in state.chance_ids(prefix)]
    return None


def not_your_turn(current: int, seat: int) -> str:
    """Why ``seat`` may not act while ``current`` (a seat, or ``CHANCE``/``TERMINAL``: no one) is to:
    a table's refusal of the seat's action, and a board's word on the seat's greyed cards."""
    whose = f"P{current + 1}" if current >= 0 else "no one"
    return f"it is {whose}'s turn, not P{seat + 1}'s"


def check_seat(seat: object, players: int, spectator: bool = False) -> int:
    """``seat`` as a seat of a ``players``-player game (0 … players - 1; with ``spectator``,
    :data:`SPECTATOR` too), as an ``int`` (a NumPy integer is one): the one check of every method
    that takes a seat (:meth:`State.observation`, :meth:`State.observation_tensor`, …). A bool (an
    ``int`` to Python, ``True`` seat 1), a seat outside the table or another value is
    :class:`InvalidSeat`, a ``ValueError`` naming it."""
    number = seat if type(seat) is int else whole_index(seat)
    if number is None:
        raise InvalidSeat(f"{quoted(seat)} is not a seat number: a seat is a whole number from 0 to {players - 1}")
    if 0 <= number < players or (spectator and number == SPECTATOR):
        return number
    raise InvalidSeat(f"no seat {number} in a {players}-player game (0 to {players - 1})")


class CheckedSteps(list[int]):
    """Steps known good, each a legal step where it was taken, as the OpenSpiel adapter keeps its
    steps towards an action: the step methods take them without :func:`check_steps`, which would
    otherwise read a deal's steps again at each of its 52. Like :meth:`State.apply_unchecked`, for
    steps taken from ``legal_ids`` or ``chance_ids`` only; others leave the answers undefined."""

    __slots__ = ()


def check_steps(state: State, steps: Sequence[object]) -> None:
    """The one check of the steps every integer-step method takes (:meth:`State.legal_ids`,
    :meth:`State.chance_ids`, :meth:`State.action_from_ids`, :meth:`State.step_text`,
    :meth:`State.observation_tensor`, :meth:`State.information_state_key`): each is an id of the node,
    a whole number (a NumPy integer is one, a bool none) from 0 to ``rules.max_chance_outcomes() - 1``
    at a chance node, else to ``rules.num_distinct_actions() - 1``; else :class:`InvalidAction` naming
    it, as OpenSpiel's ``action_to_string`` refuses an id out of range. Whether the steps follow
    each other is the method's own question. :class:`CheckedSteps` are taken as they are."""
    if not steps or type(steps) is CheckedSteps:
        return
    rules = state.rules
    chance = state.current_player == CHANCE
    size = rules.max_chance_outcomes() if chance else rules.num_distinct_actions()
    for step in steps:
        number = step if type(step) is int else whole_index(step)
        if number is not None and 0 <= number < size:
            continue
        kind = "chance outcome" if chance else "player action"
        raise InvalidAction(f"step {quoted(step)} is not a {kind} id of this game (a whole number, 0 to {size - 1})")


def one_hot(size: int, at: int) -> list[float]:
    """``size`` zeros with 1.0 at ``at``; all zeros when ``at`` is outside (none, such as -1)."""
    out = [0.0] * size
    if 0 <= at < size:
        out[at] = 1.0
    return out


_T = TypeVar("_T")


def sliced(actions: Sequence[_T], cut: slice) -> tuple[_T, ...]:
    """``actions[cut]`` for a lazy list of legal actions, as a tuple (what the games' own lists
    are): the lazy lists are whole ``Sequence``s, sliced as a tuple would be."""
    return tuple(actions[i] for i in range(*cut.indices(len(actions))))


def counts(items: Iterable[int], size: int) -> list[float]:
    """How many times each of ``0 … size - 1`` is among ``items``, as floats."""
    out = [0.0] * size
    for x in items:
        out[x] += 1.0
    return out


class Agent(Protocol):
    """A player program: given an observation and the legal actions, returns one of them."""

    name: str

    def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
        """One of ``legal_actions``, chosen from what ``observation`` shows (the agent's seat's view only)."""


def check_act(agent: Any, observation: Any, legal_actions: Sequence[Any]) -> None:
    """What every agent's ``act`` checks first: ``observation`` is of the seat the agent was made for
    (another seat's, or the spectator's, is :class:`InvalidSeat` naming both: an agent that read
    another seat's view would play that seat's cards), and ``legal_actions`` holds an action to choose
    (none, when the game is over or chance acts, is :class:`IllegalAction`, rule ``"no-legal-action"``)."""
    player = getattr(observation, "player", None)
    seat = agent.seat
    if player != seat:
        raise InvalidSeat(f"agent {agent.name!r} plays seat {seat}; it was given the observation of {to_seat(player)}")
    if not len(legal_actions):
        raise IllegalAction(f"agent {agent.name!r} was given no legal action to choose from", "no-legal-action", seat)


def to_seat(player: object) -> str:
    """A seat as a message names it: ``seat 1``, ``the spectator``, or what it was given."""
    if player == SPECTATOR:
        return "the spectator"
    return f"seat {player}" if type(player) is int else quoted(player)


def agent_repr(agent: Any) -> str:
    """An agent's repr: its class, its name (with the options it was made with) and its seat."""
    return f"<{type(agent).__name__} {agent.name!r} for seat {agent.seat}>"


def check_at_least_one(**options: int) -> None:
    """An agent's counts (samples, candidates) are 1 or more: a ``ValueError`` naming the first that is not."""
    for key, value in options.items():
        if not isinstance(value, int) or value < 1:
            raise ValueError(f"{key} must be at least 1, not {quoted(value)}")
