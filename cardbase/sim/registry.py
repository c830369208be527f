"""Which games the simulator knows: game id → rules class and agents.

Entries name their classes as ``"module:Class"`` and import them on first use, so
that listing the games costs nothing. A new game adds one entry here.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from importlib import import_module
from typing import Any

from cardbase.errors import UsageError, quoted
from cardbase.games.base import (
    Agent,
    InvalidRules,
    Rules,
    check_seat,
    check_seed,
    decimal_number,
    is_whole_number,
    kind_words,
    whole_number,
)


def _load(path: str) -> Any:
    module, _, name = path.partition(":")
    return getattr(import_module(module), name)


@dataclass(frozen=True)
class GameEntry:
    """One game the simulator can run."""

    game_id: str
    title: str
    rules: str
    agents: dict[str, str] = field(default_factory=dict)

    def rules_class(self) -> type[Rules]:
        """The game's rules class, imported on first use."""
        rules: type[Rules] = _load(self.rules)
        return rules

    def make_rules(self, options: dict[str, Any]) -> Rules:
        """Rules from options; a bad option is a :class:`UsageError` (:func:`rules_refusal`)."""
        try:
            return self.rules_class().from_options(options)
        except InvalidRules as error:
            raise rules_refusal(error, options) from None

    def rule_options(self, texts: Sequence[str], flag: str = "--rule") -> dict[str, Any]:
        """``--rule NAME=VALUE`` texts as rules options: NAME is any option of the rules class
        that is a word, a whole number or yes/no (the player count, decks and card pools
        have their own flags), VALUE is read as that option's type; the rules object then
        checks the value itself (see ``docs/rules/<game>.md``). A word option's word in another case is
        that word (``farm=LANDS`` is ``farm=lands``, as ``--farm LANDS`` is), so records keep the word as
        the rules spell it. ``flag`` names the options in a refusal (the web table's form and API:
        ``rules option``)."""
        settable = {name: kind for name, (kind, _) in self.rule_defaults().items()}
        out: dict[str, Any] = {}
        for text in texts:
            if len(text) > MAX_RULE_TEXT:
                raise UsageError(f"{flag} {quoted(text)}: at most {MAX_RULE_TEXT:,} characters")
            name, eq, raw = (part.strip() for part in text.partition("="))
            if not eq or not name:
                raise UsageError(f"{flag} takes NAME=VALUE, not {quoted(text)}")
            if name not in settable:
                known = ", ".join(sorted(settable)) or "none"
                raise UsageError(f"{flag} {quoted(name)}: not a {self.title} rules option (known: {known})")
            if name in out:
                raise UsageError(f"{flag} {name} is given twice")
            value = _rule_value(name, raw, settable[name], flag)
            words = self.rules_class().option_choices.get(name, ())
            # one of an option's words in any case, as its own flag takes it (--farm LANDS), is that word
            out[name] = next((w for w in words if isinstance(value, str) and w.lower() == value.lower()), value)
        return out

    def check_option(self, name: str, value: Any) -> None:
        """A rules option's value checked on its own (:meth:`Rules.check_option`); a usage error."""
        try:
            self.rules_class().check_option(name, value)
        except InvalidRules as error:
            refused = rules_refusal(error.about(error.option or name, error.choices, error.reason), {name: value})
            raise refused.refusing(value) from None  # the text given: a face names where it was given

    def rule_defaults(self) -> dict[str, tuple[type, Any]]:
        """The options ``--rule`` sets (see :meth:`rule_options`): name → (kind, default)."""
        cls = self.rules_class()
        kinds = {"str": str, "int": int, "bool": bool}
        out: dict[str, tuple[type, Any]] = {}
        if is_dataclass(cls):
            for f in fields(cls):
                kind = kinds.get(str(f.type))
                if kind is not None and f.name != "players" and not f.name.startswith("_"):
                    out[f.name] = (kind, f.default)
        return out

    def rules_help(self) -> str:
        """The options ``--rule`` sets, as a command's help lists them: each name with the words a word
        option takes (``second_half_leader: winner or starter``), yes or no, or a number, and the note
        a value needs (``first_player: a number (0 is P1, 1 is P2, …)``). Written in short words that a
        narrow help column can wrap (``name=a|b`` cannot be)."""
        cls = self.rules_class()
        shown = []
        for name, (kind, _) in self.rule_defaults().items():
            words = list(cls.option_words(name))
            if name in cls.option_names:
                words.append("a grid")
            value = (
                f"{', '.join(words[:-1])} or {words[-1]}"
                if len(words) > 1
                else "yes or no"
                if kind is bool
                else "a number"
                if kind is int
                else "a text"
            )
            note = cls.option_notes.get(name)
            shown.append(f"{name}: {value}" + (f" ({note})" if note else ""))
        return f"{self.title}'s options: {'; '.join(shown)}."

    def check_agents(self, names: list[str]) -> None:
        """Every agent name (options aside) is one of the game's: a usage error names the first that is not."""
        for name in names:
            _check_agent_length(name)
            if name.partition(":")[0] not in self.agents:
                raise UsageError(f"unknown {self.title} agent {quoted(name)} (known: {', '.join(self.agents)})")

    def parse_agent(self, name: str) -> tuple[Any, dict[str, Any]]:
        """The class of agent ``name`` and its options (``name:key=value;key=value``, numbers as
        ``int``), each checked against the class; a usage error names what is wrong, about the text
        ``name``. Needs no rules: the command line and the tables check their agents with it."""
        try:
            return self._parse_agent(name)
        except UsageError as error:
            raise error.refusing(name) from None

    def _parse_agent(self, name: str) -> tuple[Any, dict[str, Any]]:
        _check_agent_length(name)
        base, _, params = name.partition(":")
        if base not in self.agents:
            known = ", ".join(self.agents)
            raise UsageError(f"unknown {self.title} agent {quoted(base)} (known: {known})")
        given: dict[str, str] = {}
        for part in filter(None, params.split(";")):
            key, eq, value = part.partition("=")
            key, value = key.strip(), value.strip()
            if not eq or not key:
                raise UsageError(f"agent {quoted(name)}: options are written key=value, separated by ';'")
            if key in given:  # the later would silently win
                raise UsageError(f"agent {quoted(name)}: option {quoted(key)} is given twice")
            given[key] = value
        cls = _load(self.agents[base])
        kwargs: dict[str, Any] = {}
        for key, value in given.items():
            _check_option_name(name, base, cls, key)  # before its value: a bound of no option is no help
            if is_whole_number(value):  # (one '-' at most: int() refuses '--5')
                if whole_number(value.removeprefix("-"), MAX_AGENT_NUMBER) is None:
                    raise UsageError(f"agent {quoted(name)}: {quoted(key)} must be at most {MAX_AGENT_NUMBER:,}")
                kwargs[key] = int(value)
            else:
                kwargs[key] = value
        _check_agent_options(name, base, cls, kwargs)
        return cls, kwargs

    def make_agent(self, name: str, rules: Rules, seat: int, seed: int) -> Agent:
        """The agent ``name``; ``name:key=value;key=value`` passes options to its constructor
        (numbers as ``int``), e.g. ``heuristic:opening=3-7`` (:meth:`parse_agent`), to play seat
        ``seat`` of ``rules`` (a seat the rules do not have is :class:`InvalidSeat`, a seed no record
        holds :class:`InvalidSeed`, as ``new_initial_state``'s)."""
        cls, kwargs = self.parse_agent(name)
        check_seat(seat, rules.players)
        seed = check_seed(seed)  # type: ignore[assignment]  # (None: a seed from the OS, as the agents take)
        try:
            agent = cls(rules, seat, seed, **kwargs)
        except (TypeError, ValueError) as error:
            if not kwargs:
                raise
            raise UsageError(f"agent {quoted(name)}: {error}") from None
        if kwargs:
            agent.name = name
        made: Agent = agent
        return made


def rules_refusal(error: InvalidRules, given: Mapping[str, Any]) -> UsageError:
    """The rules' refusal ``error`` of the options ``given`` as a usage error: the command line's
    message (options by their ids), and what a face words it from as data: the option refused, its
    value and why (:meth:`~cardbase.errors.CardbaseError.taking`), or the options that contradict
    (``options``) and the refusal in words (``said``). Where each was given only a face knows (the
    start form's field of the option, the API's ``rules.NAME``): a value read (``0``) is no text that
    names one (``--seed 0`` was given it too)."""
    refused = UsageError(str(error))
    if error.option is not None:
        refused.taking(error.option, given.get(error.option), error.choices, error.reason)
    refused.options = error.options
    if error.said is not None:
        refused.saying(error.said)
    return refused


MAX_AGENT_TEXT = 300
"""The longest agent with its options (``ismcts:iters=400;c=1.4;…``): a few dozen characters in use."""
MAX_RULE_TEXT = 1_000
"""The longest ``--rule NAME=VALUE`` (the longest value is a Méa layout grid)."""


def _check_agent_length(name: str) -> None:
    if len(name) > MAX_AGENT_TEXT:
        raise UsageError(f"agent {quoted(name)}: an agent with its options has at most {MAX_AGENT_TEXT} characters")


@functools.cache
def _agent_options(cls: Any) -> dict[str, str]:
    """An agent class's options and their annotations, read once (agents are made for every game)."""
    import inspect

    params = inspect.signature(cls).parameters
    return {k: str(p.annotation) for k, p in params.items() if k not in ("self", "rules", "seat", "seed")}


def _check_option_name(name: str, base: str, cls: Any, key: str) -> None:
    """A usage error unless agent ``base`` (of the text ``name``) takes an option ``key``."""
    options = _agent_options(cls)
    if key not in options:
        if not options:
            raise UsageError(f"agent {quoted(name)}: {base} takes no options")
        raise UsageError(
            f"agent {quoted(name)}: {base} has no option {quoted(key)} (its options: {', '.join(options)})"
        )


def _check_agent_options(name: str, base: str, cls: Any, kwargs: dict[str, Any]) -> None:
    """Each option of ``name`` is one its agent takes, with a value of the kind it takes: a whole
    number where the constructor's annotation says ``int`` (and no text), a number where it says
    ``float``, never a negative number."""
    options = _agent_options(cls)
    for key, value in kwargs.items():
        _check_option_name(name, base, cls, key)
        kind = options[key]
        if isinstance(value, int) and value < 0:
            raise UsageError(f"agent {quoted(name)}: {key} must not be negative")
        if isinstance(value, int):
            continue
        if kind.startswith("float"):  # (``float | str``: a number that may come as its text)
            number = decimal_number(value)
            if number is None:
                raise UsageError(f"agent {quoted(name)}: {key} must be a number in digits, not {quoted(value, 40)}")
            if not number >= 0:
                raise UsageError(f"agent {quoted(name)}: {key} must be a number from 0, not {quoted(value)}")
        elif "str" not in kind:
            raise UsageError(f"agent {quoted(name)}: {key} must be a whole number, not {quoted(value)}")


MAX_AGENT_NUMBER = 100_000
"""Bound of an agent's whole-number options (samples, depths): more is hours per decision."""

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _rule_value(name: str, raw: str, kind: type, flag: str = "--rule") -> Any:
    """``raw`` read as a ``kind`` value for the rules option ``name``; a :class:`UsageError` if it is not one."""
    if kind is bool:
        if raw.lower() in _TRUE + _FALSE:
            return raw.lower() in _TRUE
        raise UsageError(f"{flag} {name}: {quoted(raw)} is not yes or no (true/false)").taking(name, raw, ("yes", "no"))
    if kind is int:  # ASCII digits only: int() also reads 1_0 as 10 and other scripts' digits
        digits = raw.removeprefix("-")
        if not (digits.isascii() and digits.isdecimal()):
            refused = UsageError(f"{flag} {name}: {quoted(raw)} is not a whole number")
            raise refused.taking(name, raw, reason=kind_words(int))
        return int(raw)
    return raw


GAMES: dict[str, GameEntry] = {
    "meio": GameEntry(
        game_id="meio",
        title="Meio",
        rules="cardbase.games.meio.engine:MeioRules",
        agents={
            "random": "cardbase.sim.agents:RandomAgent",
            "heuristic": "cardbase.games.meio.agents:HeuristicAgent",
            "search": "cardbase.games.meio.agents:SearchAgent",
            "ismcts": "cardbase.games.meio.agents:IsmctsAgent",
        },
    ),
    "mea": GameEntry(
        game_id="mea",
        title="Méa",
        rules="cardbase.games.mea.engine:MeaRules",
        agents={
            "random": "cardbase.sim.agents:RandomAgent",
            "heuristic": "cardbase.games.mea.agents:HeuristicAgent",
            "search": "cardbase.games.mea.agents:SearchAgent",
            "ismcts": "cardbase.games.mea.agents:IsmctsAgent",
        },
    ),
    "meikyu": GameEntry(
        game_id="meikyu",
        title="Meikyu Kingdom",
        rules="cardbase.games.meikyu.engine:MeikyuRules",
        agents={
            "random": "cardbase.sim.agents:RandomAgent",
            "heuristic": "cardbase.games.meikyu.agents:HeuristicAgent",
            "search": "cardbase.games.meikyu.agents:SearchAgent",
            "ismcts": "cardbase.games.meikyu.agents:IsmctsAgent",
        },
    ),
}


def game(game_id: str) -> GameEntry:
    """The entry for ``game_id``; an unknown id is a :class:`UsageError`."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise UsageError(f"no simulator for game {quoted(game_id)} (known: {', '.join(GAMES)})") from None


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from ``parts``, the same on every machine and process."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


NEW_SEED_BITS = 63
"""A new game's seed is this wide: a player who knows their own cards (a Meio hand is one of 2**31
seeds' deals, found in hours) cannot search the seeds for the one that dealt them, which would tell
every hidden card and every future roll. As :func:`derive_seed`'s, it fits a signed 64-bit column."""


def new_seed() -> int:
    """A new game's seed, :data:`NEW_SEED_BITS` random bits (when none is chosen)."""
    import secrets

    return secrets.randbits(NEW_SEED_BITS)
